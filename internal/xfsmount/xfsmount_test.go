//go:build linux

package xfsmount

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestMountReportsAllocsize: files on the mount report the allocsize as
// st_blksize, and Unmount leaves the directory a plain one (twice over: a
// second Unmount has nothing to do).
func TestMountReportsAllocsize(t *testing.T) {
	if ok, why := Available(); !ok {
		t.Skipf("no XFS loop mounts here: %s", why)
	}
	for _, tc := range []struct {
		allocsize string
		want      int64
	}{{"128k", 128 << 10}, {"1m", 1 << 20}} {
		t.Run(tc.allocsize, func(t *testing.T) {
			dir := t.TempDir()
			img, mnt := filepath.Join(dir, "x.img"), filepath.Join(dir, "mnt")
			if err := MakeImage(context.Background(), img, 700<<20); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(mnt, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := Mount(context.Background(), img, mnt, tc.allocsize); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { Unmount(mnt) })
			f := filepath.Join(mnt, "f")
			if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			var st unix.Stat_t
			if err := unix.Stat(f, &st); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, int64(st.Blksize)); diff != "" {
				t.Errorf("st_blksize (-want +got):\n%s", diff)
			}
			for range 2 {
				if err := Unmount(mnt); err != nil {
					t.Fatal(err)
				}
			}
			if isMountpoint(mnt) {
				t.Errorf("%s is still a mount point", mnt)
			}
		})
	}
}
