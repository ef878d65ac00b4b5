//go:build linux

package stream_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
	"github.com/stdiobuf/stdiobuf/stream"
)

// XFS mounted with largeio reports allocsize as st_blksize: a file system
// with larger blocks than ext4's, as ZFS (128 KiB) and NFS (up to 1 MiB)
// are. (Without largeio, XFS reports the page size whatever allocsize is.)

// TestXFSLargeBlksize: the default policy reads and writes 128 KiB at a
// time on both mounts (1 MiB is capped at 128 KiB), bufsiz 8 KiB, and
// coreutils the smallest power of two >= 256 KiB that st_blksize divides.
func TestXFSLargeBlksize(t *testing.T) {
	const fileSize = 5*131072 + 777 // 6 reads of data and one of end of file at 128 KiB
	tests := []struct {
		allocsize string
		blksize   int64
		coreutils int
	}{
		{"128k", 131072, 262144},
		{"1m", 1048576, 1048576},
	}
	for _, tc := range tests {
		t.Run(tc.allocsize, func(t *testing.T) {
			dir := fsmount.ForTest(t, "xfs"+tc.allocsize)
			probe, err := os.Create(filepath.Join(dir, "probe"))
			if err != nil {
				t.Fatal(err)
			}
			bs := blksizeOf(t, probe)
			probe.Close()
			if bs != tc.blksize {
				t.Fatalf("XFS mounted with allocsize=%s reports st_blksize %d, want %d", tc.allocsize, bs, tc.blksize)
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
