//go:build linux

// Package xfsmount makes XFS file systems on loop devices whose files report
// a chosen st_blksize: mounted with -o loop,largeio,allocsize=SIZE, XFS
// reports its allocation size as st_blksize (128k gives 131072, as ZFS
// reports its record size; 1m gives 1048576, as NFS). headbench and the
// third-party tool tests use it; it needs root, mkfs.xfs and loop devices.
package xfsmount

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/runcmd"
	"golang.org/x/sys/unix"
)

// Options are the mount options that make files on the mount report
// allocsize (such as "128k") as their st_blksize.
func Options(allocsize string) string { return "loop,largeio,allocsize=" + allocsize }

// Available reports whether loop mounts can be made here, and if not, why.
func Available() (ok bool, why string) {
	if os.Geteuid() != 0 {
		return false, "not running as root"
	}
	for _, tool := range []string{"mkfs.xfs", "mount", "umount"} {
		if _, err := Tool(tool); err != nil {
			return false, err.Error()
		}
	}
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		return false, "no loop devices (/dev/loop-control is missing)"
	}
	return true, ""
}

// Tool finds a system tool on PATH or in the sbin folders, which a
// non-login root shell may not have on PATH.
func Tool(name string) (string, error) {
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

// MakeImage makes img, a new sparse file of size bytes, and formats it as
// XFS. On error img may be left for the caller to remove.
func MakeImage(ctx context.Context, img string, size int64) error {
	f, err := os.OpenFile(img, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("making %s: %w", img, err)
	}
	mkfs, err := Tool("mkfs.xfs")
	if err != nil {
		return err
	}
	return runcmd.Run(ctx, mkfs, "-q", img)
}

// Mount mounts the image img on the existing directory mnt with
// Options(allocsize).
func Mount(ctx context.Context, img, mnt, allocsize string) error {
	mount, err := Tool("mount")
	if err != nil {
		return err
	}
	return runcmd.Run(ctx, mount, "-o", Options(allocsize), img, mnt)
}

// Unmount unmounts mnt if something is mounted there. A busy mount is tried
// again for a second (a child killed by an interrupt may still hold a file
// open), then detached lazily. mount -o loop set the loop device up to be
// freed with the mount.
func Unmount(mnt string) error {
	if !isMountpoint(mnt) {
		return nil
	}
	umount, err := Tool("umount")
	if err != nil {
		return err
	}
	for range 10 {
		if err = runcmd.Run(context.Background(), umount, mnt); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if lerr := runcmd.Run(context.Background(), umount, "-l", mnt); lerr != nil {
		return errors.Join(err, lerr)
	}
	return nil
}

// isMountpoint reports whether dir is on another device than its parent.
func isMountpoint(dir string) bool {
	var a, b unix.Stat_t
	if unix.Stat(dir, &a) != nil || unix.Stat(filepath.Dir(dir), &b) != nil {
		return false
	}
	return a.Dev != b.Dev
}
