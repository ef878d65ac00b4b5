//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

// imageSize returns a sparse image size (or a tmpfs size limit) with room
// for an input of n bytes and the file system's own log and metadata.
func imageSize(n int64) int64 {
	return n + n/4 + (400 << 20)
}

// mountFS mounts fs on a new folder in dir, copies input there and returns
// the target. It pushes the unmount on cl as soon as there is a mount, and
// Mount leaves nothing behind when it fails, so an interrupt at any point
// leaves nothing behind once cl runs.
func mountFS(ctx context.Context, dir string, fs fsmount.FS, input string, cl *cleanups) (*target, error) {
	st, err := os.Stat(input)
	if err != nil {
		return nil, err
	}
	m, err := fs.Mount(ctx, dir, imageSize(st.Size()))
	if err != nil {
		return nil, err
	}
	cl.push("unmount "+m.Dir, m.Close)
	dst := filepath.Join(m.Dir, "input")
	if err := copyFile(dst, input); err != nil {
		return nil, fmt.Errorf("copying the input to %s: %w", dst, err)
	}
	return newTarget(fs.Name, dst, fs.Recipe())
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
