//go:build linux

// Package fsmount mounts file systems whose files report a known
// st_blksize, for the benchmarks and the tests that need one:
//
//	name        st_blksize            how
//	ext4        4096                  mkfs.ext4 -b 4096, loop device (most machines)
//	ext4-1k     1024                  mkfs.ext4 -b 1024, loop device (small images, boot partitions)
//	tmpfs       the page size (4096)  mount -t tmpfs
//	tmpfs-huge  the PMD size (2 MiB)  mount -t tmpfs -o huge=always
//	xfs128k     131072                mkfs.xfs, -o loop,largeio,allocsize=128k (as ZFS's record size)
//	xfs1m       1048576               mkfs.xfs, -o loop,largeio,allocsize=1m (as NFS's transfer size)
//
// XFS mounted with largeio reports its allocation size as st_blksize;
// without largeio it reports the page size whatever allocsize is. tmpfs
// reports the page size, or with huge pages the size of one (x86-64's
// 2 MiB, which /sys/kernel/mm/transparent_hugepage/hpage_pmd_size gives).
// Disk file systems go on sparse images on loop devices. Mounting needs
// root, mount and umount, and for a disk file system loop devices and its
// mkfs tool (e2fsprogs, xfsprogs); Available says what is missing.
package fsmount

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/runcmd"
	"golang.org/x/sys/unix"
)

// An FS is a file system Mount can make, and the st_blksize its files
// report.
type FS struct {
	// Name is what Lookup and ForTest take: "ext4", "ext4-1k", "tmpfs",
	// "tmpfs-huge", "xfs128k" or "xfs1m".
	Name string
	// Blksize is the st_blksize a file on the mount reports; Mount checks
	// it. It is 0 when it cannot be known here (no huge pages), and then
	// Available says why.
	Blksize int64
	// Type is the file system type, as mount -t takes it.
	Type string
	// Options are the mount options besides loop and size.
	Options string

	mkfs    []string // the mkfs command before the image; nil for tmpfs
	pkg     string   // the Debian package that holds mkfs[0]
	minSize int64    // the least image or tmpfs size
	unknown string   // why Blksize is 0
}

// xfsMin is the least image size of XFS (mkfs.xfs wants 300 MB); minSize
// is that of ext4 and tmpfs, room enough for a test's files.
const (
	xfsMin  = 700 << 20
	minSize = 64 << 20
)

// ext4Mkfs is the mkfs command of ext4 with blocks of blocksize bytes. It
// formats without lazy initialisation, so that no kernel thread writes
// inode tables while the mount is in use (and timed).
func ext4Mkfs(blocksize string) []string {
	return []string{"mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", "-b", blocksize}
}

// hugePageFile holds the size of a transparent huge page, the st_blksize
// of a file on tmpfs mounted with huge=always.
const hugePageFile = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"

// All returns every FS, in the order of the package documentation.
func All() []FS {
	huge := FS{Name: "tmpfs-huge", Type: "tmpfs", Options: "huge=always", minSize: minSize}
	if b, err := os.ReadFile(hugePageFile); err != nil {
		huge.unknown = "no transparent huge pages: " + err.Error()
	} else if huge.Blksize, err = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err != nil {
		huge.unknown = fmt.Sprintf("%s: %v", hugePageFile, err)
	}
	return []FS{
		{Name: "ext4", Blksize: 4096, Type: "ext4", mkfs: ext4Mkfs("4096"), pkg: "e2fsprogs", minSize: minSize},
		{Name: "ext4-1k", Blksize: 1024, Type: "ext4", mkfs: ext4Mkfs("1024"), pkg: "e2fsprogs", minSize: minSize},
		{Name: "tmpfs", Blksize: int64(os.Getpagesize()), Type: "tmpfs", minSize: minSize},
		huge,
		{Name: "xfs128k", Blksize: 128 << 10, Type: "xfs", Options: "largeio,allocsize=128k", mkfs: []string{"mkfs.xfs", "-q"}, pkg: "xfsprogs", minSize: xfsMin},
		{Name: "xfs1m", Blksize: 1 << 20, Type: "xfs", Options: "largeio,allocsize=1m", mkfs: []string{"mkfs.xfs", "-q"}, pkg: "xfsprogs", minSize: xfsMin},
	}
}

// Lookup returns the FS named name.
func Lookup(name string) (FS, error) {
	var names []string
	for _, fs := range All() {
		if fs.Name == name {
			return fs, nil
		}
		names = append(names, fs.Name)
	}
	return FS{}, fmt.Errorf("fsmount: unknown file system %q (known: %s)", name, strings.Join(names, ", "))
}

// onDisk reports whether fs is made on an image on a loop device.
func (fs FS) onDisk() bool { return fs.mkfs != nil }

// mountOptions are the options of mount -o: loop for an image, size for
// tmpfs, then fs.Options.
func (fs FS) mountOptions(size int64) string {
	opts := "loop"
	if !fs.onDisk() {
		opts = "size=" + strconv.FormatInt(size, 10)
	}
	if fs.Options != "" {
		opts += "," + fs.Options
	}
	return opts
}

// Recipe says how Mount makes fs, for a report: "mkfs.ext4 -b 1024; mount
// -o loop" or "mount -t tmpfs -o huge=always".
func (fs FS) Recipe() string {
	if !fs.onDisk() {
		s := "mount -t tmpfs"
		if fs.Options != "" {
			s += " -o " + fs.Options
		}
		return s
	}
	return strings.Join(fs.mkfs, " ") + " on a sparse image; mount -o " + fs.mountOptions(0)
}

// Available reports whether fs can be mounted here, and if not, why.
func (fs FS) Available() (ok bool, why string) {
	if os.Geteuid() != 0 {
		return false, "not running as root"
	}
	for _, name := range []string{"mount", "umount"} {
		if _, err := tool(name); err != nil {
			return false, err.Error()
		}
	}
	if fs.onDisk() {
		if _, err := tool(fs.mkfs[0]); err != nil {
			return false, fmt.Sprintf("%v (Debian package %s)", err, fs.pkg)
		}
		if _, err := os.Stat("/dev/loop-control"); err != nil {
			return false, "no loop devices (/dev/loop-control is missing)"
		}
	}
	if fs.Blksize <= 0 {
		return false, fs.unknown
	}
	return true, ""
}

// tool finds a system tool on PATH or in the sbin folders, which a
// non-login root shell may not have on PATH.
func tool(name string) (string, error) {
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

// A Mount is an FS mounted by Mount.
type Mount struct {
	FS FS
	// Dir is the mount point.
	Dir string
	// image is the image file of a disk file system; "" for tmpfs.
	image string
}

// Mount makes fs and mounts it on the new folder dir/NAME. A disk file
// system is made on a new sparse image dir/NAME.img of size bytes; tmpfs
// may hold size bytes. A size below what the file system needs is raised
// to it (0 asks for the least). Mount then checks that a new file there
// reports fs.Blksize. On error, a cancelled ctx included, it leaves nothing
// mounted and removes what it made.
func (fs FS) Mount(ctx context.Context, dir string, size int64) (m *Mount, err error) {
	if ok, why := fs.Available(); !ok {
		return nil, fmt.Errorf("fsmount: %s: %s", fs.Name, why)
	}
	size = max(size, fs.minSize)
	m = &Mount{FS: fs, Dir: filepath.Join(dir, fs.Name)}
	if err := os.Mkdir(m.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("fsmount: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(fmt.Errorf("fsmount: %s: %w", fs.Name, err), m.Close())
			m = nil
		}
	}()
	mount, err := tool("mount")
	if err != nil {
		return m, err
	}
	source := "tmpfs"
	if fs.onDisk() {
		m.image = m.Dir + ".img"
		if err := makeImage(ctx, m.image, size, fs.mkfs); err != nil {
			return m, err
		}
		source = m.image
	}
	if err := runcmd.Run(ctx, mount, "-t", fs.Type, "-o", fs.mountOptions(size), source, m.Dir); err != nil {
		return m, err
	}
	if got, err := probeBlksize(m.Dir); err != nil {
		return m, err
	} else if got != fs.Blksize {
		return m, fmt.Errorf("a new file on the mount reports st_blksize %d, want %d", got, fs.Blksize)
	}
	return m, nil
}

// makeImage makes img, a new sparse file of size bytes, and formats it
// with mkfs.
func makeImage(ctx context.Context, img string, size int64, mkfs []string) error {
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
	path, err := tool(mkfs[0])
	if err != nil {
		return err
	}
	return runcmd.Run(ctx, path, append(mkfs[1:len(mkfs):len(mkfs)], img)...)
}

// probeBlksize creates a file in dir, and returns its st_blksize after
// removing it.
func probeBlksize(dir string) (int64, error) {
	f, err := os.CreateTemp(dir, ".fsmount-probe-")
	if err != nil {
		return 0, err
	}
	var st unix.Stat_t
	err = unix.Fstat(int(f.Fd()), &st)
	f.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return int64(st.Blksize), err
}

// Close unmounts m and removes its mount point and image. A busy mount is
// tried again for a second (a child killed by an interrupt may still hold
// a file open), then detached lazily. Closing again does nothing.
func (m *Mount) Close() error {
	errs := []error{unmount(m.Dir)}
	for _, p := range []string{m.Dir, m.image} {
		if p == "" {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// unmount unmounts mnt if something is mounted there. mount -o loop set the
// loop device up to be freed with the mount.
func unmount(mnt string) error {
	if !isMountpoint(mnt) {
		return nil
	}
	umount, err := tool("umount")
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
