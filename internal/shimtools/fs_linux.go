package shimtools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// CanMountXFS says whether MountXFS can work here, and if not why.
func CanMountXFS() (ok bool, why string) {
	if os.Geteuid() != 0 {
		return false, "loop mounts need root"
	}
	for _, tool := range []string{"mkfs.xfs", "mount", "umount"} {
		if _, err := sbinTool(tool); err != nil {
			return false, err.Error()
		}
	}
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		return false, "no loop devices (/dev/loop-control is missing)"
	}
	return true, ""
}

// sbinTool finds a system tool on PATH or in the sbin folders, which a
// non-login root shell may lack on PATH.
func sbinTool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		if p := filepath.Join(dir, name); unix.Access(p, unix.X_OK) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH, /usr/sbin or /sbin", name)
}

// XFSOptions are the mount options that make XFS report its allocation
// size, 128 KiB, as st_blksize (largeio), as ZFS reports its record size.
const XFSOptions = "loop,largeio,allocsize=128k"

// MountXFS makes a sparse image of size bytes in dir, formats it as XFS,
// mounts it with XFSOptions on dir/xfs and returns the mount point and a
// function that unmounts it and removes the image. On error nothing is left
// mounted.
func MountXFS(ctx context.Context, dir string, size int64) (mnt string, cleanup func() error, err error) {
	img := filepath.Join(dir, "xfs.img")
	mnt = filepath.Join(dir, "xfs")
	mounted := false
	cleanup = func() error {
		var errs []error
		if mounted {
			umount, _ := sbinTool("umount")
			if out, err := exec.Command(umount, mnt).CombinedOutput(); err != nil {
				errs = append(errs, fmt.Errorf("umount %s: %v: %s", mnt, err, out))
			}
		}
		for _, p := range []string{mnt, img} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	f, err := os.OpenFile(img, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", nil, err
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", nil, err
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		return "", nil, err
	}
	mkfs, err := sbinTool("mkfs.xfs")
	if err != nil {
		return "", nil, err
	}
	if out, err := exec.CommandContext(ctx, mkfs, "-q", img).CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("mkfs.xfs %s: %v: %s", img, err, out)
	}
	mount, err := sbinTool("mount")
	if err != nil {
		return "", nil, err
	}
	if out, err := exec.CommandContext(ctx, mount, "-o", XFSOptions, img, mnt).CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("mount -o %s %s: %v: %s", XFSOptions, img, err, out)
	}
	mounted = true
	return mnt, cleanup, nil
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
