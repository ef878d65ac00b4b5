//go:build linux

package fsmount

import (
	"context"
	"testing"
)

// ForTest mounts the FS called name (see Lookup) in a temporary directory
// and returns the mount point, or skips the test saying why it cannot: not
// root, no loop devices, no mkfs tool, or a kernel whose mount does not
// report the FS's st_blksize. The mount is the least size of its kind (64
// MiB, 700 MiB sparse for XFS). It is unmounted, then removed, when the
// test ends.
func ForTest(t testing.TB, name string) string {
	t.Helper()
	fs, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := fs.Available(); !ok {
		t.Skipf("needs a %s mount: %s", name, why)
	}
	m, err := fs.Mount(context.Background(), t.TempDir(), 0)
	if err != nil {
		t.Skipf("needs a %s mount: %v", name, err)
	}
	// Registered after TempDir's removal, so it runs before it.
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("unmounting %s: %v", m.Dir, err)
		}
	})
	return m.Dir
}
