//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stdiobuf/stdiobuf/internal/xfsmount"
)

// xfsConfig is an XFS mount whose st_blksize is set by its allocsize: with
// largeio, XFS reports the allocation size as st_blksize, as ZFS reports its
// 128 KiB record size and NFS its 1 MiB transfer size.
type xfsConfig struct {
	name      string
	allocsize string
	blksize   int64
}

var xfsConfigs = map[string]xfsConfig{
	"xfs128k": {"xfs128k", "128k", 128 << 10},
	"xfs1m":   {"xfs1m", "1m", 1 << 20},
}

// minImageSize is the image size of the recipe; XFS wants at least
// 300 MB, and the seed's input takes 230 MB of it.
const minImageSize = 700 << 20

// imageSize returns a sparse image size with room for an input of n bytes
// and XFS's own log and metadata.
func imageSize(n int64) int64 {
	return max(minImageSize, n+n/4+(400<<20))
}

// mountXFS makes an XFS image in dir, mounts it with cfg's allocsize on a
// new folder in dir, copies input there and returns the target. It pushes
// the unmount and removals on cl before doing each thing, so an interrupt
// at any point leaves nothing behind once cl runs. The commands it starts
// for cleanup ignore ctx, which an interrupt has already cancelled.
func mountXFS(ctx context.Context, dir string, cfg xfsConfig, input string, cl *cleanups) (*target, error) {
	st, err := os.Stat(input)
	if err != nil {
		return nil, err
	}
	img := filepath.Join(dir, cfg.name+".img")
	cl.push("remove "+img, func() error { return removeIfExists(img) })
	if err := xfsmount.MakeImage(ctx, img, imageSize(st.Size())); err != nil {
		return nil, err
	}
	mnt := filepath.Join(dir, cfg.name)
	if err := os.Mkdir(mnt, 0o755); err != nil {
		return nil, err
	}
	cl.push("remove "+mnt, func() error { return removeIfExists(mnt) })
	cl.push("unmount "+mnt, func() error { return xfsmount.Unmount(mnt) })
	if err := xfsmount.Mount(ctx, img, mnt, cfg.allocsize); err != nil {
		return nil, err
	}
	opts := xfsmount.Options(cfg.allocsize)
	dst := filepath.Join(mnt, "input")
	if err := copyFile(dst, input); err != nil {
		return nil, fmt.Errorf("copying the input to %s: %w", dst, err)
	}
	t, err := newTarget(cfg.name, dst, "XFS on a loop device, mount -o "+opts)
	if err != nil {
		return nil, err
	}
	if t.Blksize != cfg.blksize {
		// Not an error: the figures say what they saw, and this says
		// what was asked for.
		t.Mount += fmt.Sprintf(" (asked for st_blksize %d)", cfg.blksize)
	}
	return t, nil
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// copyFile copies src to a new file dst and syncs it, so that no writeback
// of the copy runs during the timed runs.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if serr := out.Sync(); err == nil {
		err = serr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
