//go:build linux

package fsmount

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestMountReportsBlksize: a file written on each mount reports the FS's
// st_blksize; Close leaves nothing of the mount, its folder or its image
// (twice over: a second Close has nothing to do).
func TestMountReportsBlksize(t *testing.T) {
	want := map[string]int64{
		"ext4": 4096, "ext4-1k": 1024, "tmpfs": int64(os.Getpagesize()),
		"xfs128k": 128 << 10, "xfs1m": 1 << 20,
		// tmpfs-huge: the huge page size, which only the kernel knows.
	}
	for _, fs := range All() {
		t.Run(fs.Name, func(t *testing.T) {
			if w, ok := want[fs.Name]; ok && fs.Blksize != w {
				t.Errorf("Blksize %d, want %d", fs.Blksize, w)
			}
			if ok, why := fs.Available(); !ok {
				t.Skipf("cannot mount %s here: %s", fs.Name, why)
			}
			dir := t.TempDir()
			m, err := fs.Mount(context.Background(), dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { m.Close() })
			f := filepath.Join(m.Dir, "f")
			if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			var st unix.Stat_t
			if err := unix.Stat(f, &st); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fs.Blksize, int64(st.Blksize)); diff != "" {
				t.Errorf("st_blksize (-want +got):\n%s", diff)
			}
			for range 2 {
				if err := m.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("left in %s after Close: %v", dir, left)
			}
		})
	}
}

// TestMountFailureLeavesNothing: a mount that cannot be made, or does not
// report the st_blksize asked for, is an error that names the file system
// and leaves nothing behind.
func TestMountFailureLeavesNothing(t *testing.T) {
	tests := []struct {
		name    string
		fs      string
		blksize int64 // if not 0, what the FS is made to claim
		cancel  bool  // Mount with a cancelled context
		want    string
	}{
		{"cancelled mkfs", "ext4-1k", 0, true, "fsmount: ext4-1k: mkfs.ext4 "},
		{"cancelled mount", "tmpfs", 0, true, "fsmount: tmpfs: mount -t tmpfs "},
		{"wrong st_blksize", "tmpfs", 512, false, "fsmount: tmpfs: a new file on the mount reports st_blksize " + strconv.Itoa(os.Getpagesize()) + ", want 512"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := Lookup(tc.fs)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := fs.Available(); !ok {
				t.Skipf("cannot mount %s here: %s", tc.fs, why)
			}
			if tc.blksize != 0 {
				fs.Blksize = tc.blksize
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				cancel()
			}
			defer cancel()
			dir := t.TempDir()
			m, err := fs.Mount(ctx, dir, 0)
			if err == nil {
				m.Close()
				t.Fatal("Mount succeeded")
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want it to begin %q", err, tc.want)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("left in %s: %v", dir, left)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	fs, err := Lookup("xfs128k")
	if err != nil || fs.Recipe() != "mkfs.xfs -q on a sparse image; mount -o loop,largeio,allocsize=128k" {
		t.Errorf("Lookup(xfs128k) = %q, %v", fs.Recipe(), err)
	}
	if fs, _ := Lookup("tmpfs-huge"); fs.Recipe() != "mount -t tmpfs -o huge=always" {
		t.Errorf("tmpfs-huge recipe %q", fs.Recipe())
	}
	_, err = Lookup("zfs")
	if err == nil || !strings.Contains(err.Error(), `unknown file system "zfs" (known: ext4, ext4-1k, tmpfs, tmpfs-huge, xfs128k, xfs1m)`) {
		t.Errorf("Lookup(zfs): %v", err)
	}
}
