//go:build linux

package stream_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stdiobuf/stdiobuf/stream"
)

// XFS mounted with largeio reports allocsize as st_blksize: a file system
// with larger blocks than ext4's, as ZFS (128 KiB) and NFS (up to 1 MiB)
// are. (Without largeio, XFS reports the page size whatever allocsize is.)

// mountXFS makes a sparse 700 MiB XFS image in a temporary directory and
// mounts it on a loop device with the given options, or skips the test.
// It is unmounted, then removed, when the test ends.
func mountXFS(t *testing.T, opts string) string {
	t.Helper()
	const skip = "needs root to mount XFS loop devices: "
	if os.Geteuid() != 0 {
		t.Skip(skip + "not running as root")
	}
	mkfs, err := exec.LookPath("mkfs.xfs")
	if err != nil {
		t.Skip(skip + err.Error())
	}
	dir := t.TempDir()
	img := filepath.Join(dir, "xfs.img")
	f, err := os.Create(img)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(700 << 20) // XFS wants at least 300 MiB
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs, "-q", img).CombinedOutput(); err != nil {
		t.Skipf(skip+"mkfs.xfs: %v: %s", err, out)
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop,"+opts, img, mnt).CombinedOutput(); err != nil {
		t.Skipf(skip+"mount -o loop,%s: %v: %s", opts, err, out)
	}
	// Registered after TempDir's removal, so it runs before it.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	return mnt
}

// TestXFSLargeBlksize: the default policy reads and writes 128 KiB at a
// time on both mounts (1 MiB is capped at 128 KiB), bufsiz 8 KiB, and
// coreutils the smallest power of two >= 256 KiB that st_blksize divides.
func TestXFSLargeBlksize(t *testing.T) {
	const fileSize = 5*131072 + 777 // 6 reads of data and one of end of file at 128 KiB
	tests := []struct {
		opts      string
		blksize   int64
		coreutils int
	}{
		{"largeio,allocsize=128k", 131072, 262144},
		{"largeio,allocsize=1m", 1048576, 1048576},
	}
	for _, tc := range tests {
		t.Run(tc.opts, func(t *testing.T) {
			dir := mountXFS(t, tc.opts)
			probe, err := os.Create(filepath.Join(dir, "probe"))
			if err != nil {
				t.Fatal(err)
			}
			bs := blksizeOf(t, probe)
			probe.Close()
			if bs != tc.blksize {
				t.Fatalf("XFS mounted with %s reports st_blksize %d, want %d", tc.opts, bs, tc.blksize)
			}
			checkFilePolicies(t, dir, fileSize, []policyCase{
				{"default", stream.PolicyDefault, fullyBuffered(131072, bs, stream.PolicyBlksize)},
				{"bufsiz", stream.PolicyBufsiz, fullyBuffered(8192, bs, stream.PolicyBufsiz)},
				{"coreutils", stream.PolicyCoreutils, fullyBuffered(tc.coreutils, bs, stream.PolicyCoreutils)},
				{"bufio", stream.PolicyBufio, fullyBuffered(4096, bs, stream.PolicyBufio)},
				{"fixed 100000", 100000, fullyBuffered(100000, bs, 100000)},
			})
		})
	}
}
