//go:build linux

package stream_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
	"github.com/stdiobuf/stdiobuf/stream"
)

// Streams on mounted file systems whose st_blksize is not 4096 (XFS's
// large ones are in xfs_test.go): each policy reads and writes whole
// buffers of its size there.

// mountBlksize mounts the file system called name and returns the mount
// point and the st_blksize a new file there reports, which must be want.
func mountBlksize(t *testing.T, name string, want int64) (dir string) {
	t.Helper()
	dir = fsmount.ForTest(t, name)
	probe, err := os.Create(filepath.Join(dir, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if bs := blksizeOf(t, probe); bs != want {
		t.Fatalf("%s reports st_blksize %d, want %d", name, bs, want)
	}
	return dir
}

// TestSmallBlksize: on ext4 made with -b 1024 (st_blksize 1024, as boot
// partitions and small images; WSL1 reports 512) the default policy still
// reads and writes bufio's 4096, never less; bufsiz keeps glibc's exact
// 1024, and the other rules do not depend on so small a block.
func TestSmallBlksize(t *testing.T) {
	dir := mountBlksize(t, "ext4-1k", 1024)
	const fileSize = 5*131072 + 777
	checkFilePolicies(t, dir, fileSize, []policyCase{
		{"default", stream.PolicyDefault, fullyBuffered(4096, 1024, stream.PolicyBlksize)},
		{"readahead", stream.PolicyReadahead, fullyBuffered(4096, 1024, stream.PolicyReadahead)},
		{"bufsiz", stream.PolicyBufsiz, fullyBuffered(1024, 1024, stream.PolicyBufsiz)},
		{"coreutils", stream.PolicyCoreutils, fullyBuffered(262144, 1024, stream.PolicyCoreutils)},
		{"bufio", stream.PolicyBufio, fullyBuffered(4096, 1024, stream.PolicyBufio)},
		{"cpython", stream.PolicyCpython, fullyBuffered(131072, 1024, stream.PolicyCpython)},
		{"rust", stream.PolicyRust, fullyBuffered(8192, 1024, stream.PolicyRust)},
	})
}

// TestHugeBlksize: on tmpfs with transparent huge pages (st_blksize 2 MiB
// on x86-64) the default policy caps the buffer at 128 KiB; cpython and
// coreutils take the huge page, as those programs would.
func TestHugeBlksize(t *testing.T) {
	fs, err := fsmount.Lookup("tmpfs-huge")
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := fs.Available(); !ok {
		t.Skipf("needs a tmpfs-huge mount: %s", why)
	}
	bs := fs.Blksize
	dir := mountBlksize(t, "tmpfs-huge", bs)
	fileSize := int(2*bs) + 777
	checkFilePolicies(t, dir, fileSize, []policyCase{
		{"default", stream.PolicyDefault, fullyBuffered(131072, bs, stream.PolicyBlksize)},
		{"bufsiz", stream.PolicyBufsiz, fullyBuffered(8192, bs, stream.PolicyBufsiz)},
		{"coreutils", stream.PolicyCoreutils, fullyBuffered(int(bs), bs, stream.PolicyCoreutils)},
		{"cpython", stream.PolicyCpython, fullyBuffered(int(min(bs, 8<<20)), bs, stream.PolicyCpython)},
		{"rust", stream.PolicyRust, fullyBuffered(8192, bs, stream.PolicyRust)},
	})
}
