//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`. The
// generator renames the toolchain's own names in internal/osstdout's
// FilesMethods and FilesFuncs to stdioRaw<Name>; the ones here take their
// place and write out what each can see of a buffered file first, by
// identity (zz_stdiobuf_ident.go): what returns a file's metadata runs
// first and again if it found a file that was then written out
// (stdioStatRun), so that its result is the plain build's at no extra
// call; what changes or names the file a path reaches stats the path
// first (stdioBeforeName), while two buffers or more hold bytes, and
// writes out the one that does where only one does (stdioWriteOutOne);
// an open writes out nothing (the new *File's first operation does,
// stdioFilesBefore), but one with O_TRUNC makes sure no buffered byte
// outlives the truncation (stdioOpenTrunc); what makes a name or lists
// a directory sees no buffered byte. Standard output, where it is a
// regular file, is one more buffered file. (A signal sent is -stdout's:
// zz_stdiobuf_methods.go.)

package os

import (
	"io"
	"time"
)

// ReadAt writes out f's file but gives back no read buffer: it does not
// see the file's offset.
func (f *File) ReadAt(b []byte, off int64) (n int, err error) {
	stdioFilesBeforeRead(f)
	n, err = f.stdioRawReadAt(b, off)
	if len(b) > 0 {
		// One pread(2), and one more that found the end after a short
		// one, as of a regular file; ReadAt does not count toward a
		// read buffer's decision (stdioReadSmall).
		stdioPlainRead(f, stdioReadSmall, n, err)
		if n > 0 && n < len(b) {
			stdioPlainRead(f, stdioReadSmall, 0, err)
		}
	}
	return n, err
}

// WriteTo may copy from a pipe in the kernel, around Read: another
// *File on standard input's buffered pipe makes it plain first.
func (f *File) WriteTo(w io.Writer) (n int64, err error) {
	stdioPipeReader(f)
	stdioFilesFlush()
	return f.stdioRawWriteTo(w)
}

// ReadDir and Readdirnames list names and types, which no buffered byte
// changes; an entry's Info is Lstat's, unless ReadDir read it at once
// (in a directory opened in a Root, or where the file system gives no
// types), and then stdioRefreshEntry runs it again for a file it
// writes out. Readdir's FileInfos are lstat's, likewise. A listing
// tells that f is a directory (stdioListed).
func (f *File) ReadDir(n int) ([]DirEntry, error) {
	if stdioPathDirty() && stdioRefreshEntry == nil {
		stdioWriteOutAll()
	}
	gen := stdioKindGen.Load()
	ds, err := f.stdioRawReadDir(n)
	stdioListed(f, gen, len(ds), err)
	if stdioPathDirty() && stdioRefreshEntry != nil {
		for _, d := range ds {
			stdioRefreshEntry(d)
		}
	}
	return ds, err
}

func (f *File) Readdir(n int) ([]FileInfo, error) {
	gen := stdioKindGen.Load()
	fis, err := f.stdioRawReaddir(n)
	stdioListed(f, gen, len(fis), err)
	if stdioPathDirty() {
		for i, fi := range fis {
			name := f.Name() + "/" + fi.Name()
			if !stdioSeen(fi, stdioStatfsOf(name)) {
				continue
			}
			if again, err := stdioRawLstat(name); err == nil {
				fis[i] = again
			}
		}
	}
	return fis, err
}

func (f *File) Readdirnames(n int) (names []string, err error) {
	gen := stdioKindGen.Load()
	names, err = f.stdioRawReaddirnames(n)
	stdioListed(f, gen, len(names), err)
	return names, err
}

// stdioListed decides f, while a buffer holds bytes, from a listing of
// it that began at descriptor count gen and returned n entries and err:
// one that returned entries or the end proves f a directory, which no
// buffer is over, so the operations on f that come later (os.ReadDir's
// Close) see no buffered byte and need no fstat to tell. A failed
// listing tells nothing: a regular file's fails too.
func stdioListed(f *File, gen uint32, n int, err error) {
	if stdioFiles.dirty.Load()|stdioReads.held.Load() == 0 || n == 0 && err != nil && err != io.EOF || f == nil {
		return
	}
	st := &f.stdioNotes.need().kind
	if st.get() != nil {
		return
	}
	d := st.alloc()
	d.kind, d.gen = stdioKindNone, gen
	st.decided(d)
}

// Stat and Lstat test first whether anything is buffered, so that a
// walker's Lstat per entry with nothing held runs the toolchain's own
// code and no other. They are stdioStatRunIn spelt out, with no closure:
// a stat per record while a report holds bytes pays its identity's look
// and nothing more.
func Stat(name string) (FileInfo, error) {
	m := stdioPathMask()
	if m == 0 || stdioStatAllFirst(m) {
		return stdioRawStat(name)
	}
	fi, err := stdioRawStat(name)
	if err == nil && stdioSeenIn(m, fi, stdioStatfsOf(name)) {
		return stdioRawStat(name)
	}
	return fi, err
}

func Lstat(name string) (FileInfo, error) {
	m := stdioPathMask()
	if m == 0 || stdioStatAllFirst(m) {
		return stdioRawLstat(name)
	}
	fi, err := stdioRawLstat(name)
	if err == nil && stdioSeenIn(m, fi, stdioStatfsOf(name)) {
		return stdioRawLstat(name)
	}
	return fi, err
}

// OpenFile is also Open, Create, ReadFile, WriteFile and CreateTemp's.
func OpenFile(name string, flag int, perm FileMode) (*File, error) {
	if flag&O_TRUNC != 0 {
		return stdioOpenTrunc(flag, func(flag int) (*File, error) { return stdioRawOpenFile(name, flag, perm) })
	}
	f, err := stdioRawOpenFile(name, flag, perm)
	if stdioTooMany(err) {
		f, err = stdioOpenAgain(func() (*File, error) { return stdioRawOpenFile(name, flag, perm) }, err)
	}
	stdioOpened(f, flag)
	return f, err
}

// Rename announces the file at oldpath under a new name: it is written
// out first.
func Rename(oldpath, newpath string) error {
	stdioBeforeName(stdioStatfsOf(oldpath), func() (FileInfo, error) { return stdioRawStat(oldpath) })
	return stdioRawRename(oldpath, newpath)
}

// Link names the file at oldname (link(2) does not follow a symbolic
// link) again.
func Link(oldname, newname string) error {
	stdioBeforeName(stdioStatfsOf(oldname), func() (FileInfo, error) { return stdioRawLstat(oldname) })
	return stdioRawLink(oldname, newname)
}

// Symlink names the file oldname reaches, relative to newname's
// directory.
func Symlink(oldname, newname string) error {
	target := oldname
	if !IsPathSeparator(stdioFirst(oldname)) {
		target = stdioDir(newname) + oldname
	}
	stdioBeforeName(stdioStatfsOf(target), func() (FileInfo, error) { return stdioRawStat(target) })
	return stdioRawSymlink(oldname, newname)
}

// Readlink reads a link, which no buffered byte changes.
func Readlink(name string) (string, error) {
	return stdioRawReadlink(name)
}

func Remove(name string) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawLstat(name) })
	return stdioRawRemove(name)
}

// RemoveAll may remove any file under path: everything is written out.
func RemoveAll(path string) error {
	stdioBeforePath()
	return stdioRawRemoveAll(path)
}

func Truncate(name string, size int64) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawStat(name) })
	return stdioRawTruncate(name, size)
}

func Chmod(name string, mode FileMode) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawStat(name) })
	return stdioRawChmod(name, mode)
}

func Chown(name string, uid, gid int) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawStat(name) })
	return stdioRawChown(name, uid, gid)
}

func Lchown(name string, uid, gid int) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawLstat(name) })
	return stdioRawLchown(name, uid, gid)
}

func Chtimes(name string, atime time.Time, mtime time.Time) error {
	stdioBeforeName(stdioStatfsOf(name), func() (FileInfo, error) { return stdioRawStat(name) })
	return stdioRawChtimes(name, atime, mtime)
}

// Mkdir, MkdirAll, MkdirTemp and ReadDir make or list names: no
// buffered byte is seen through them.
func Mkdir(name string, perm FileMode) error {
	return stdioRawMkdir(name, perm)
}

func MkdirAll(path string, perm FileMode) error {
	return stdioRawMkdirAll(path, perm)
}

func MkdirTemp(dir, pattern string) (string, error) {
	return stdioRawMkdirTemp(dir, pattern)
}

func ReadDir(name string) ([]DirEntry, error) {
	return stdioRawReadDir(name)
}

// stdioRefreshEntry, where the target's own file sets it (Unix: its
// sys_linux.go), writes out the file whose metadata a DirEntry read at
// once, if it holds bytes, and reads the metadata again. Where it is
// nil, ReadDir writes out everything first.
var stdioRefreshEntry func(d DirEntry)

// stdioFirst is name's first byte, 0 if it is empty.
func stdioFirst(name string) byte {
	if name == "" {
		return 0
	}
	return name[0]
}

// stdioDir is name's directory with its final separator, "" if name has
// none.
func stdioDir(name string) string {
	i := len(name) - 1
	for i >= 0 && !IsPathSeparator(name[i]) {
		i--
	}
	return name[:i+1]
}
