//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`. The
// generator renames the toolchain's own names in internal/osstdout's
// FilesMethods and FilesFuncs to stdioRaw<Name>; the ones here take their
// place and write out every buffered file first (stdioFilesFlush; the path
// operations also standard output, where it is a regular file:
// stdioBeforePath): what reads a file's contents or its metadata, changes
// or names it sees every byte written before. (A signal sent is
// -stdout's: zz_stdiobuf_methods.go.)

package os

import (
	"io"
	"time"
)

// ReadAt writes out the write buffers but gives back no read buffer: it
// does not see the file's offset.
func (f *File) ReadAt(b []byte, off int64) (n int, err error) {
	stdioFilesWriteOut()
	return f.stdioRawReadAt(b, off)
}

// WriteTo may copy from a pipe in the kernel, around Read: another
// *File on standard input's buffered pipe makes it plain first.
func (f *File) WriteTo(w io.Writer) (n int64, err error) {
	stdioPipeReader(f)
	stdioFilesFlush()
	return f.stdioRawWriteTo(w)
}

func (f *File) ReadDir(n int) ([]DirEntry, error) {
	stdioFilesFlush()
	return f.stdioRawReadDir(n)
}

func (f *File) Readdir(n int) ([]FileInfo, error) {
	stdioFilesFlush()
	return f.stdioRawReaddir(n)
}

func (f *File) Readdirnames(n int) (names []string, err error) {
	stdioFilesFlush()
	return f.stdioRawReaddirnames(n)
}

func Stat(name string) (FileInfo, error) {
	stdioBeforePath()
	return stdioRawStat(name)
}

func Lstat(name string) (FileInfo, error) {
	stdioBeforePath()
	return stdioRawLstat(name)
}

// OpenFile is also Open, Create, ReadFile, WriteFile and CreateTemp's.
func OpenFile(name string, flag int, perm FileMode) (*File, error) {
	stdioBeforePath()
	return stdioRawOpenFile(name, flag, perm)
}

func Rename(oldpath, newpath string) error {
	stdioBeforePath()
	return stdioRawRename(oldpath, newpath)
}

func Link(oldname, newname string) error {
	stdioBeforePath()
	return stdioRawLink(oldname, newname)
}

func Symlink(oldname, newname string) error {
	stdioBeforePath()
	return stdioRawSymlink(oldname, newname)
}

func Readlink(name string) (string, error) {
	stdioBeforePath()
	return stdioRawReadlink(name)
}

func Remove(name string) error {
	stdioBeforePath()
	return stdioRawRemove(name)
}

func RemoveAll(path string) error {
	stdioBeforePath()
	return stdioRawRemoveAll(path)
}

func Truncate(name string, size int64) error {
	stdioBeforePath()
	return stdioRawTruncate(name, size)
}

func Chmod(name string, mode FileMode) error {
	stdioBeforePath()
	return stdioRawChmod(name, mode)
}

func Chown(name string, uid, gid int) error {
	stdioBeforePath()
	return stdioRawChown(name, uid, gid)
}

func Lchown(name string, uid, gid int) error {
	stdioBeforePath()
	return stdioRawLchown(name, uid, gid)
}

func Chtimes(name string, atime time.Time, mtime time.Time) error {
	stdioBeforePath()
	return stdioRawChtimes(name, atime, mtime)
}

func Mkdir(name string, perm FileMode) error {
	stdioBeforePath()
	return stdioRawMkdir(name, perm)
}

func MkdirAll(path string, perm FileMode) error {
	stdioBeforePath()
	return stdioRawMkdirAll(path, perm)
}

func MkdirTemp(dir, pattern string) (string, error) {
	stdioBeforePath()
	return stdioRawMkdirTemp(dir, pattern)
}

func ReadDir(name string) ([]DirEntry, error) {
	stdioBeforePath()
	return stdioRawReadDir(name)
}
