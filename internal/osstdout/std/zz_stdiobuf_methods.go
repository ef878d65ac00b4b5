//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`. The
// generator renames the toolchain's own methods of *File named in
// internal/osstdout's Methods (and the functions in Funcs) to
// stdioRaw<Name>; the ones here take their place: they send the original
// standard output through its buffer (zz_stdiobuf_stdout.go), flush it
// before anything else can see the descriptor or the file, and call the
// originals. Under -files they also send a regular file through its own
// buffer and write out every buffered file before anything else
// (zz_stdiobuf_files.go).

package os

import (
	"io"
	"syscall"
)

// Write is the toolchain's Write (stdioRawWrite), except that on the
// original standard output, and under -files on a file that has a
// buffer, it writes into the buffer.
func (f *File) Write(b []byte) (n int, err error) {
	if fb := stdioBufOf(f); fb != nil {
		return fb.write(f, b)
	}
	if stdioOut.buffering(f) {
		return stdioOut.write(b)
	}
	if fb := stdioFileOf(f); fb != nil {
		return fb.write(f, b)
	}
	stdioFilesBefore(f)
	stdioOut.beforeWrite(f)
	n, err = f.stdioRawWrite(b)
	stdioWroteOnce(f, n)
	stdioPlainWrite(f, n, err)
	return n, err
}

// WriteAt flushes the original standard output first.
func (f *File) WriteAt(b []byte, off int64) (n int, err error) {
	stdioFilesBefore(f)
	stdioOut.flushBefore(f)
	stdioOut.beforeWrite(f)
	n, err = f.stdioRawWriteAt(b, off)
	if len(b) > 0 {
		stdioPlainWrite(f, n, err) // one pwrite(2): a regular file takes it whole
	}
	return n, err
}

// ReadFrom (io.Copy into a file) flushes the original standard output
// first, then copies as the toolchain does, in the kernel where it can.
func (f *File) ReadFrom(r io.Reader) (n int64, err error) {
	stdioFilesFlush()
	if err := stdioOut.flushAsked(f); err != nil {
		return 0, err
	}
	stdioOut.beforeWrite(f)
	return f.stdioRawReadFrom(r)
}

// Read flushes the original standard output before a read of the
// original standard input that may wait (stdioStream.beforeRead). Under
// -files a regular file open read-only reads through its own buffer
// (zz_stdiobuf_reads.go), and so does the original standard input on a
// pipe no other reader is seen on (zz_stdiobuf_pipein.go).
func (f *File) Read(b []byte) (n int, err error) {
	rb := stdioReadOf(f, len(b))
	if rb != nil {
		if n, err, ok := rb.read(b); ok {
			return n, err
		}
	}
	stdioPipeReader(f)
	stdioFilesBefore(f)
	stdioOut.beforeRead(f)
	var retry bool
	if stdioReadsIn(f) {
		n, err, retry = stdioReadIn(f, b, rb != nil)
	} else {
		n, err = f.stdioRawRead(b)
	}
	if !retry {
		stdioReadCount(f, len(b), n)
		stdioHeardRead(f, n)
		stdioPlainRead(f, len(b), n, err)
		return n, err
	}
	return f.Read(b)
}

// Fd and SyscallConn flush the original standard output first: whatever
// sees the descriptor sees every byte written before. On the original
// standard input, and on any file that is the same file as standard
// output (standard error under 2>&1), they act as a read or a write
// would: whoever takes the descriptor may read it raw (a password
// prompt: fmt.Print, then term.ReadPassword(int(os.Stdin.Fd()))) or write
// to it in the kernel.
//
// Sync, Seek, Stat, Truncate, Chmod and Chown on the original standard
// output flush it first, so that they see every byte written before.
// Under -files they, a plain Read or Write and Close write out what they
// can see (stdioFilesBefore): a regular file's own buffer, everything
// for a pipe, a socket or a terminal.
func (f *File) Fd() uintptr {
	stdioHandOut(f)
	stdioExposed(f)
	stdioOut.seeing(f)
	return f.stdioRawFd()
}

func (f *File) SyscallConn() (syscall.RawConn, error) {
	stdioHandOut(f)
	stdioExposed(f)
	stdioOut.seeing(f)
	return f.stdioRawSyscallConn()
}

// seeing flushes what must be out before f's descriptor is handed out.
func (s *stdioStream) seeing(f *File) {
	stdioFilesFlush()
	s.flushBefore(f)
	s.beforeRead(f)
	s.beforeWrite(f)
}

// Sync is a flush the program asks for: it gets the flush's error.
func (f *File) Sync() error {
	if err := stdioOut.syncFlush(f); err != nil {
		return err
	}
	if f != nil && f.stdioFile.buffered() {
		if err := f.stdioNotes.get().wbuf.flushProgram(); err != nil {
			return err
		}
	}
	stdioFilesBefore(f)
	return f.stdioRawSync()
}

func (f *File) Seek(offset int64, whence int) (ret int64, err error) {
	if offset == 0 && whence == io.SeekCurrent && f != nil && f.stdioRead.v.Load() == stdioReadBuffered {
		// Where the program is, asked of a file read through a buffer
		// (an indexer noting offsets): the buffer stays.
		if off, err, ok := f.stdioNotes.get().rbuf.tell(); ok {
			return off, err
		}
	}
	stdioFilesBefore(f)
	stdioOut.flushBefore(f)
	return f.stdioRawSeek(offset, whence)
}

func (f *File) Stat() (FileInfo, error) {
	stdioOut.flushBefore(f)
	return stdioStatFile(f)
}

func (f *File) Truncate(size int64) error {
	stdioFilesBefore(f)
	stdioOut.flushBefore(f)
	return f.stdioRawTruncate(size)
}

func (f *File) Chmod(mode FileMode) error {
	stdioFilesBefore(f)
	stdioOut.flushBefore(f)
	return f.stdioRawChmod(mode)
}

func (f *File) Chown(uid, gid int) error {
	stdioFilesBefore(f)
	stdioOut.flushBefore(f)
	return f.stdioRawChown(uid, gid)
}

// Close flushes the original standard output before closing it, and
// reports a failed flush as fclose(3) does; later writes go straight to
// the closed file and fail as they did without the buffer.
func (f *File) Close() error {
	stdioFilesBefore(f)
	stdioReads.retire(f)
	if f != nil && f.stdioFile.buffered() {
		ferr := f.stdioNotes.get().wbuf.close()
		if err := f.stdioRawClose(); err != nil {
			return err
		}
		return ferr
	}
	if !stdioOut.buffering(f) {
		err := f.stdioRawClose()
		stdioStdinClosed(f)
		return err
	}
	ferr := stdioOut.close()
	if err := f.stdioRawClose(); err != nil {
		return err
	}
	return ferr
}

// StartProcess flushes standard output first, so that a child writing to
// the same descriptor (exec.Cmd with Stdout = os.Stdout) comes after what
// the parent wrote before starting it.
func StartProcess(name string, argv []string, attr *ProcAttr) (*Process, error) {
	stdioReadsInherit(attr)
	stdioBeforePeerWrite()
	return stdioRawStartProcess(name, argv, attr)
}

// Signal and Kill write out everything buffered first: whoever gets the
// signal may look at standard output and the files (a parent told by
// SIGUSR1 that a file is ready, a child told to go on). On Linux they
// signal through a pidfd, not syscall.Kill, whose hook does the same.
func (p *Process) Signal(sig Signal) error {
	stdioBeforePeerWrite()
	return p.stdioRawSignal(sig)
}

func (p *Process) Kill() error {
	stdioBeforePeerWrite()
	return p.stdioRawKill()
}
