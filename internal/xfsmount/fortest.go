//go:build linux

package xfsmount

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// ForTest mounts a sparse 700 MiB XFS image (XFS wants at least 300 MiB)
// with Options(allocsize) in a temporary directory and returns the mount
// point, or skips the test saying why it cannot. It is unmounted, then
// removed, when the test ends.
func ForTest(t testing.TB, allocsize string) string {
	t.Helper()
	if ok, why := Available(); !ok {
		t.Skipf("needs an XFS loop mount: %s", why)
	}
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "xfs.img"), filepath.Join(dir, "mnt")
	if err := MakeImage(context.Background(), img, 700<<20); err != nil {
		t.Skipf("needs an XFS loop mount: %v", err)
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Mount(context.Background(), img, mnt, allocsize); err != nil {
		t.Skipf("needs an XFS loop mount: %v", err)
	}
	// Registered after TempDir's removal, so it runs before it.
	t.Cleanup(func() {
		if err := Unmount(mnt); err != nil {
			t.Errorf("unmounting %s: %v", mnt, err)
		}
	})
	return mnt
}
