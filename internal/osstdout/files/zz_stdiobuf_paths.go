//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`. The
// generator renames the toolchain's own names in internal/osstdout's
// FilesMethods and FilesFuncs to stdioRaw<Name>; the ones here take their
// place and write out every buffered file first (stdioFilesFlush): what
// reads a file's contents or its metadata, changes or names it sees every
// byte written before. (A signal sent is -stdout's: zz_stdiobuf_methods.go.)

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

func (f *File) WriteTo(w io.Writer) (n int64, err error) {
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
	stdioFilesFlush()
	return stdioRawStat(name)
}

func Lstat(name string) (FileInfo, error) {
	stdioFilesFlush()
	return stdioRawLstat(name)
}

// OpenFile is also Open, Create, ReadFile, WriteFile and CreateTemp's.
func OpenFile(name string, flag int, perm FileMode) (*File, error) {
	stdioFilesFlush()
	return stdioRawOpenFile(name, flag, perm)
}

func Rename(oldpath, newpath string) error {
	stdioFilesFlush()
	return stdioRawRename(oldpath, newpath)
}

func Link(oldname, newname string) error {
	stdioFilesFlush()
	return stdioRawLink(oldname, newname)
}

func Symlink(oldname, newname string) error {
	stdioFilesFlush()
	return stdioRawSymlink(oldname, newname)
}

func Readlink(name string) (string, error) {
	stdioFilesFlush()
	return stdioRawReadlink(name)
}

func Remove(name string) error {
	stdioFilesFlush()
	return stdioRawRemove(name)
}

func RemoveAll(path string) error {
	stdioFilesFlush()
	return stdioRawRemoveAll(path)
}

func Truncate(name string, size int64) error {
	stdioFilesFlush()
	return stdioRawTruncate(name, size)
}

func Chmod(name string, mode FileMode) error {
	stdioFilesFlush()
	return stdioRawChmod(name, mode)
}

func Chown(name string, uid, gid int) error {
	stdioFilesFlush()
	return stdioRawChown(name, uid, gid)
}

func Lchown(name string, uid, gid int) error {
	stdioFilesFlush()
	return stdioRawLchown(name, uid, gid)
}

func Chtimes(name string, atime time.Time, mtime time.Time) error {
	stdioFilesFlush()
	return stdioRawChtimes(name, atime, mtime)
}

func Mkdir(name string, perm FileMode) error {
	stdioFilesFlush()
	return stdioRawMkdir(name, perm)
}

func MkdirAll(path string, perm FileMode) error {
	stdioFilesFlush()
	return stdioRawMkdirAll(path, perm)
}

func MkdirTemp(dir, pattern string) (string, error) {
	stdioFilesFlush()
	return stdioRawMkdirTemp(dir, pattern)
}

func ReadDir(name string) ([]DirEntry, error) {
	stdioFilesFlush()
	return stdioRawReadDir(name)
}
