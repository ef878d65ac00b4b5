//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`: os.Root's
// path operations, which reach the kernel through the root's descriptor
// (openat, fstatat, renameat...) and not through os's package-level ones,
// write out what they can see of a buffered file first, by the rules of
// the package-level ones (zz_stdiobuf_paths.go), with the root's own
// stat for the path. Root.FS's methods and OpenInRoot go through these.
// The generator renames the toolchain's own methods (internal/osstdout's
// FilesRootMethods and FilesRootFuncs) to stdioRaw<Name>, and drops from
// this file the wrapper of each one a release lacks.

package os

import "time"

func OpenRoot(name string) (*Root, error) {
	return stdioRawOpenRoot(name)
}

func (r *Root) OpenRoot(name string) (*Root, error) {
	return r.stdioRawOpenRoot(name)
}

// Open, Create, ReadFile and WriteFile open through r.OpenFile.
func (r *Root) Open(name string) (*File, error) {
	return r.stdioRawOpen(name)
}

func (r *Root) Create(name string) (*File, error) {
	return r.stdioRawCreate(name)
}

func (r *Root) OpenFile(name string, flag int, perm FileMode) (*File, error) {
	if flag&O_TRUNC != 0 {
		return stdioOpenTrunc(flag, func(flag int) (*File, error) { return r.stdioRawOpenFile(name, flag, perm) })
	}
	f, err := r.stdioRawOpenFile(name, flag, perm)
	if stdioTooMany(err) {
		f, err = stdioOpenAgain(func() (*File, error) { return r.stdioRawOpenFile(name, flag, perm) }, err)
	}
	stdioOpened(f, flag)
	return f, err
}

func (r *Root) ReadFile(name string) ([]byte, error) {
	return r.stdioRawReadFile(name)
}

func (r *Root) WriteFile(name string, data []byte, perm FileMode) error {
	return r.stdioRawWriteFile(name, data, perm)
}

// Stat and Lstat give no name that statfs could ask: a file on an
// unknown file system of anonymous device number counts as untrusted.
func (r *Root) Stat(name string) (FileInfo, error) {
	return stdioStatRun(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(name) })
}

func (r *Root) Lstat(name string) (FileInfo, error) {
	return stdioStatRun(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawLstat(name) })
}

func (r *Root) Readlink(name string) (string, error) {
	return r.stdioRawReadlink(name)
}

func (r *Root) Rename(oldname, newname string) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(oldname) })
	return r.stdioRawRename(oldname, newname)
}

func (r *Root) Link(oldname, newname string) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawLstat(oldname) })
	return r.stdioRawLink(oldname, newname)
}

func (r *Root) Symlink(oldname, newname string) error {
	if IsPathSeparator(stdioFirst(oldname)) {
		stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return stdioRawStat(oldname) })
	} else {
		stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(stdioDir(newname) + oldname) })
	}
	return r.stdioRawSymlink(oldname, newname)
}

func (r *Root) Remove(name string) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawLstat(name) })
	return r.stdioRawRemove(name)
}

func (r *Root) RemoveAll(name string) error {
	stdioBeforePath()
	return r.stdioRawRemoveAll(name)
}

func (r *Root) Mkdir(name string, perm FileMode) error {
	return r.stdioRawMkdir(name, perm)
}

func (r *Root) MkdirAll(name string, perm FileMode) error {
	return r.stdioRawMkdirAll(name, perm)
}

func (r *Root) Chmod(name string, mode FileMode) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(name) })
	return r.stdioRawChmod(name, mode)
}

func (r *Root) Chown(name string, uid, gid int) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(name) })
	return r.stdioRawChown(name, uid, gid)
}

func (r *Root) Lchown(name string, uid, gid int) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawLstat(name) })
	return r.stdioRawLchown(name, uid, gid)
}

func (r *Root) Chtimes(name string, atime time.Time, mtime time.Time) error {
	stdioBeforeName(stdioNoStatfs(), func() (FileInfo, error) { return r.stdioRawStat(name) })
	return r.stdioRawChtimes(name, atime, mtime)
}
