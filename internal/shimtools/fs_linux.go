package shimtools

import (
	"context"
	"fmt"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
	"golang.org/x/sys/unix"
)

// CanMountXFS says whether MountXFS can work here, and if not why.
func CanMountXFS() (ok bool, why string) { return xfs128k().Available() }

// XFSOptions are the mount options MountXFS uses: files report st_blksize
// 131072.
const XFSOptions = "loop,largeio,allocsize=128k"

// xfs128k is the file system MountXFS mounts, with XFSOptions.
func xfs128k() fsmount.FS {
	fs, _ := fsmount.Lookup("xfs128k")
	return fs
}

// MountXFS makes a sparse image of size bytes in dir, formats it as XFS,
// mounts it with XFSOptions on a new folder in dir and returns the mount
// point and a function that unmounts it and removes the image. On error
// nothing is left mounted.
func MountXFS(ctx context.Context, dir string, size int64) (mnt string, cleanup func() error, err error) {
	m, err := xfs128k().Mount(ctx, dir, size)
	if err != nil {
		return "", nil, err
	}
	return m.Dir, m.Close, nil
}

// FSType names the file system that holds path, from statfs(2), and gives
// the st_blksize a file there reports.
func FSType(path string) (name string, blksize int64, err error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(path, &fs); err != nil {
		return "", 0, fmt.Errorf("statfs %s: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", 0, fmt.Errorf("stat %s: %w", path, err)
	}
	switch int64(fs.Type) {
	case unix.EXT4_SUPER_MAGIC:
		name = "ext4" // ext2 and ext3 share the magic number
	case unix.XFS_SUPER_MAGIC:
		name = "xfs"
	case unix.TMPFS_MAGIC:
		name = "tmpfs"
	case unix.BTRFS_SUPER_MAGIC:
		name = "btrfs"
	case unix.OVERLAYFS_SUPER_MAGIC:
		name = "overlayfs"
	case 0x2fc12fc1:
		name = "zfs"
	default:
		name = fmt.Sprintf("statfs type %#x", fs.Type)
	}
	return name, int64(st.Blksize), nil
}
