//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`: an open
// that fails for want of descriptors, where a plain build's would not.
// A buffer that holds bytes keeps its file alive, so a file the program
// drops without Close stays open until its bytes are written out, where
// the plain build's is closed by the collector: a program that opens and
// drops many files can run out of descriptors that the plain build has.
// Instead of writing everything out at every open to let the collector
// close them, an open that fails with EMFILE or ENFILE writes every
// buffer out, runs the collector, and tries again.

package os

import (
	"runtime"
	"syscall"
	"time"
)

// stdioOpenTries is how many times an open that ran out of descriptors
// is tried again, each after a collection and a wait twice as long as
// the one before, from stdioOpenWait: the dropped files are closed by
// os's cleanups, which run on a goroutine of their own after the
// collection, and nothing tells when they have; 1+2+4+8+16 ms covers a
// loaded machine's scheduling, and only a program that really has too
// many files open pays it all.
const (
	stdioOpenTries = 5
	stdioOpenWait  = time.Millisecond
)

// stdioOpen runs open with flag and, where it fails for want of
// descriptors, stdioOpenAgain. OpenFile and Root.OpenFile, whose opens
// need no second try with O_EXCL, spell it out around their raw open,
// so that an open that succeeds calls through no func value.
func stdioOpen(open func(flag int) (*File, error), flag int) (*File, error) {
	f, err := open(flag)
	if !stdioTooMany(err) {
		return f, err
	}
	return stdioOpenAgain(func() (*File, error) { return open(flag) }, err)
}

// stdioOpenAgain writes out what buffers hold and collects the files
// they kept alive, then runs open again, after an open that failed with
// err for want of descriptors.
func stdioOpenAgain(open func() (*File, error), err error) (*File, error) {
	var f *File
	wait := stdioOpenWait
	for i := 0; i < stdioOpenTries && stdioTooMany(err); i++ {
		stdioFilesWriteOut()
		runtime.GC()
		time.Sleep(wait)
		wait *= 2
		f, err = open()
	}
	return f, err
}

// stdioTooMany reports whether err says the process or the system has no
// descriptor left.
func stdioTooMany(err error) bool {
	pe, ok := err.(*PathError)
	return ok && stdioNoDescriptor(pe.Err)
}

// stdioOpenTrunc opens a file with flag, which holds O_TRUNC, by open,
// so that no buffered byte outlives the truncation. While anything is
// held, an open that may create the file tries O_EXCL first: a file it
// creates is no buffered file and needs no look (a generator writing
// new files while its log holds bytes keeps the log buffered); once
// such a try finds the file there, no later open tries, so a program
// that rewrites files pays that one call. Otherwise the one file held
// is written out before the open (stdioWriteOutOne), or the open is
// followed by stdioTruncated's fstat.
func stdioOpenTrunc(flag int, open func(flag int) (*File, error)) (*File, error) {
	if flag&(O_CREATE|O_EXCL) == O_CREATE && stdioIDOf != nil && stdioPathDirty() && !stdioFiles.exclFound.Load() {
		g := stdioFiles.gen.Load() + 1
		f, err := stdioOpen(open, flag|O_EXCL)
		if err == nil {
			stdioOpened(f, flag)
			f.stdioNotes.fresh.Store(g)
			return f, nil
		}
		if IsExist(err) {
			stdioFiles.exclFound.Store(true)
		}
	}
	stdioWriteOutOne()
	f, err := stdioOpen(open, flag)
	stdioOpened(f, flag)
	if err == nil {
		stdioTruncated(f)
	}
	return f, err
}
