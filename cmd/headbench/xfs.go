//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
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

// canMount says whether XFS loop mounts can be made here, and if not why.
func canMount() (ok bool, why string) {
	if os.Geteuid() != 0 {
		return false, "not running as root"
	}
	for _, tool := range []string{"mkfs.xfs", "mount", "umount"} {
		if _, err := lookTool(tool); err != nil {
			return false, tool + " not found"
		}
	}
	if _, err := os.Stat("/dev/loop-control"); err != nil {
		return false, "no loop devices (/dev/loop-control is missing)"
	}
	return true, ""
}

// lookTool finds a system tool on PATH or in the sbin folders, which a
// non-login root shell may not have on PATH.
func lookTool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH, /usr/sbin or /sbin", name)
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
	f, err := os.OpenFile(img, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	err = f.Truncate(imageSize(st.Size()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("making %s: %w", img, err)
	}
	mkfs, _ := lookTool("mkfs.xfs")
	if err := runTool(ctx, mkfs, "-q", img); err != nil {
		return nil, err
	}
	mnt := filepath.Join(dir, cfg.name)
	if err := os.Mkdir(mnt, 0o755); err != nil {
		return nil, err
	}
	cl.push("remove "+mnt, func() error { return removeIfExists(mnt) })
	cl.push("unmount "+mnt, func() error { return unmount(mnt) })
	opts := "loop,largeio,allocsize=" + cfg.allocsize
	mountCmd, _ := lookTool("mount")
	if err := runTool(ctx, mountCmd, "-o", opts, img, mnt); err != nil {
		return nil, err
	}
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

// runTool runs a command and returns an error holding its output if it fails.
func runTool(ctx context.Context, name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// unmount unmounts mnt if something is mounted there. A busy mount is tried
// again for a second (a child killed by an interrupt may still hold the
// input open), then detached lazily. mount -o loop set up the loop device
// to be freed with the mount.
func unmount(mnt string) error {
	if !isMountpoint(mnt) {
		return nil
	}
	umount, err := lookTool("umount")
	if err != nil {
		return err
	}
	for range 10 {
		if err = runTool(context.Background(), umount, mnt); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	if lerr := runTool(context.Background(), umount, "-l", mnt); lerr != nil {
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
