//go:build linux

package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// target is a file system the figures are taken on, with a copy of the
// input on it. Blksize is what fstat reports for that copy: every figure on
// the target saw it, nothing is faked.
type target struct {
	Name    string `json:"name"` // "local" or a mount of internal/fsmount: "ext4", "xfs128k", ...
	Input   string `json:"input"`
	FSType  string `json:"fs_type"`
	Blksize int64  `json:"st_blksize"`
	// Mount is how headbench mounted the file system; empty for local.
	Mount string `json:"mount,omitempty"`
}

// describe returns the target as the reports name it.
func (t *target) describe() string {
	s := fmt.Sprintf("%s, st_blksize %d", t.FSType, t.Blksize)
	if t.Mount != "" {
		s += ", " + t.Mount
	}
	return s
}

// newTarget stats path and returns the target named name that holds it.
func newTarget(name, path, mount string) (*target, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(path, &sfs); err != nil {
		return nil, &os.PathError{Op: "statfs", Path: path, Err: err}
	}
	return &target{Name: name, Input: path, FSType: fsTypeName(int64(sfs.Type)), Blksize: int64(st.Blksize), Mount: mount}, nil
}

// blksizeOf returns the st_blksize fstat reports for path, or 0.
func blksizeOf(path string) int64 {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return 0
	}
	return int64(st.Blksize)
}

// fsTypeName names the file systems whose st_blksize matters here (the
// glibc proposal's and the benchmark's: ZFS, NFS, CephFS, XFS, ext4).
func fsTypeName(magic int64) string {
	switch magic {
	case unix.EXT4_SUPER_MAGIC:
		return "ext4"
	case unix.XFS_SUPER_MAGIC:
		return "xfs"
	case unix.BTRFS_SUPER_MAGIC:
		return "btrfs"
	case unix.TMPFS_MAGIC:
		return "tmpfs"
	case unix.NFS_SUPER_MAGIC:
		return "nfs"
	case unix.OVERLAYFS_SUPER_MAGIC:
		return "overlayfs"
	case unix.CEPH_SUPER_MAGIC:
		return "ceph"
	case unix.FUSE_SUPER_MAGIC:
		return "fuse"
	case 0x2fc12fc1: // not in x/sys/unix
		return "zfs"
	}
	return fmt.Sprintf("fs 0x%x", magic)
}

// warm reads path once so that every timed run finds it in the page cache.
func warm(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(io.Discard, f)
	return err
}
