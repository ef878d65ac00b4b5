//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`: what a
// *File keeps beyond its states (stdioAliasState, stdioFileState,
// stdioReadState), made at the first need. Every *File pays for the
// fields the generator adds to os's file struct, and a program may hold
// many thousands at once; most of them are opened, written or read once
// and closed, never get a buffer, and never need these.

package os

import "sync/atomic"

// stdioNotesRef is a field of every *File (the generator adds it to
// os's file struct, internal/osstdout): its notes, nil until the first
// need, then never changed, and the two counts that every operation on
// the file reads while a buffer holds bytes. fresh is here since it is
// all that a file made beside a held buffer ever notes (a generator's
// outputs beside its log): in the notes it would cost each such file an
// allocation, and the garbage collector its share. clear is beside it
// since the struct's size class (128 bytes on 64-bit systems, against
// plain's 96) holds both: an operation on a file found clear reads no
// notes. The notes hold no pointer to the file: the file struct has a
// finalizer, which an object that reaches itself never runs.
type stdioNotesRef struct {
	p     atomic.Pointer[stdioFileNotes]
	fresh atomic.Uint64 // where the file's open made its file (stdioOpenTrunc's O_EXCL), stdioFiles.gen+1 before that open; 0 otherwise
	clear atomic.Uint64 // what a look found (setClear): stdioFiles.masks+1 from before it, shifted left, | 1 where it also found no buffer over the file; 0 before
}

// setClear notes that a look begun at mask count g-1 found the file's
// bit in no held file's mask (stdioClear) and, with all, no buffer over
// the file either (stdioClearOfAll).
func (r *stdioNotesRef) setClear(g uint64, all bool) {
	v := g << 1
	if all {
		v |= 1
	}
	r.clear.Store(v)
}

// clearAt reports whether the note setClear left is of mask count g-1,
// and whether it said all.
func (r *stdioNotesRef) clearAt(g uint64) (clear, all bool) {
	c := r.clear.Load()
	return c>>1 == g, c&1 != 0
}

// stdioFileNotes is what a *File keeps beyond its states.
type stdioFileNotes struct {
	wbuf  *stdioFileBuf  // the write buffer; set before stdioFileState.v becomes stdioFileBuffered and never changed
	rbuf  *stdioReadBuf  // the read buffer; set before stdioReadState.v becomes stdioReadBuffered and never changed
	kind  stdioKindState // what an operation on the file can see (its identity), under -files
	first atomic.Int64   // with the report on: 1 + the bytes of the first Write, made plainly; 0 until it returns
	small atomic.Int32   // the Reads of fewer than stdioReadSmall bytes while stdioReadState.v is stdioReadPipe
	pipe  atomic.Uint32  // whether the file is on standard input's buffered pipe (stdioPipeReader)
	// report is the file's plain reads and writes while the report is
	// on (STDIOBUF_REPORT); nil until its first.
	report atomic.Pointer[stdioPlainCount]
}

// get returns the notes, nil where none were made.
func (r *stdioNotesRef) get() *stdioFileNotes { return r.p.Load() }

// need returns the notes, making them at the first need.
func (r *stdioNotesRef) need() *stdioFileNotes {
	if n := r.p.Load(); n != nil {
		return n
	}
	r.p.CompareAndSwap(nil, new(stdioFileNotes))
	return r.p.Load()
}

// wbuf is the write buffer, nil where there is none.
func (r *stdioNotesRef) wbuf() *stdioFileBuf {
	if n := r.p.Load(); n != nil {
		return n.wbuf
	}
	return nil
}

// rbuf is the read buffer, nil where there is none.
func (r *stdioNotesRef) rbuf() *stdioReadBuf {
	if n := r.p.Load(); n != nil {
		return n.rbuf
	}
	return nil
}
