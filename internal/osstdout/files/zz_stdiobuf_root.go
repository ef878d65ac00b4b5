//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`: os.Root's
// path operations, which reach the kernel through the root's descriptor
// (openat, fstatat, renameat...) and not through os's package-level ones,
// write out every buffered file first (stdioBeforePath), as those do.
// Root.FS's methods and OpenInRoot go through these. The generator
// renames the toolchain's own methods (internal/osstdout's
// FilesRootMethods and FilesRootFuncs) to stdioRaw<Name>, and drops from
// this file the wrapper of each one a release lacks.

package os

import "time"

func OpenRoot(name string) (*Root, error) {
	stdioBeforePath()
	return stdioRawOpenRoot(name)
}

func (r *Root) OpenRoot(name string) (*Root, error) {
	stdioBeforePath()
	return r.stdioRawOpenRoot(name)
}

func (r *Root) Open(name string) (*File, error) {
	stdioBeforePath()
	return r.stdioRawOpen(name)
}

func (r *Root) Create(name string) (*File, error) {
	stdioBeforePath()
	return r.stdioRawCreate(name)
}

func (r *Root) OpenFile(name string, flag int, perm FileMode) (*File, error) {
	stdioBeforePath()
	return r.stdioRawOpenFile(name, flag, perm)
}

func (r *Root) ReadFile(name string) ([]byte, error) {
	stdioBeforePath()
	return r.stdioRawReadFile(name)
}

func (r *Root) WriteFile(name string, data []byte, perm FileMode) error {
	stdioBeforePath()
	return r.stdioRawWriteFile(name, data, perm)
}

func (r *Root) Stat(name string) (FileInfo, error) {
	stdioBeforePath()
	return r.stdioRawStat(name)
}

func (r *Root) Lstat(name string) (FileInfo, error) {
	stdioBeforePath()
	return r.stdioRawLstat(name)
}

func (r *Root) Readlink(name string) (string, error) {
	stdioBeforePath()
	return r.stdioRawReadlink(name)
}

func (r *Root) Rename(oldname, newname string) error {
	stdioBeforePath()
	return r.stdioRawRename(oldname, newname)
}

func (r *Root) Link(oldname, newname string) error {
	stdioBeforePath()
	return r.stdioRawLink(oldname, newname)
}

func (r *Root) Symlink(oldname, newname string) error {
	stdioBeforePath()
	return r.stdioRawSymlink(oldname, newname)
}

func (r *Root) Remove(name string) error {
	stdioBeforePath()
	return r.stdioRawRemove(name)
}

func (r *Root) RemoveAll(name string) error {
	stdioBeforePath()
	return r.stdioRawRemoveAll(name)
}

func (r *Root) Mkdir(name string, perm FileMode) error {
	stdioBeforePath()
	return r.stdioRawMkdir(name, perm)
}

func (r *Root) MkdirAll(name string, perm FileMode) error {
	stdioBeforePath()
	return r.stdioRawMkdirAll(name, perm)
}

func (r *Root) Chmod(name string, mode FileMode) error {
	stdioBeforePath()
	return r.stdioRawChmod(name, mode)
}

func (r *Root) Chown(name string, uid, gid int) error {
	stdioBeforePath()
	return r.stdioRawChown(name, uid, gid)
}

func (r *Root) Lchown(name string, uid, gid int) error {
	stdioBeforePath()
	return r.stdioRawLchown(name, uid, gid)
}

func (r *Root) Chtimes(name string, atime time.Time, mtime time.Time) error {
	stdioBeforePath()
	return r.stdioRawChtimes(name, atime, mtime)
}
