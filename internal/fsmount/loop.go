package fsmount

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// LoopForTest returns the path of a loop device (a block device) backed
// by a file holding data, detached when the test ends. It skips the test
// where it cannot make one: not root, no losetup, no loop devices (any
// system but Linux).
func LoopForTest(t testing.TB, data []byte) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a loop device needs root")
	}
	if _, err := exec.LookPath("losetup"); err != nil {
		t.Skip("no losetup (util-linux) to make a loop device")
	}
	img := filepath.Join(t.TempDir(), "img")
	if err := os.WriteFile(img, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "--find", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("losetup --find --show: %v: %s", err, out)
	}
	dev := strings.TrimSpace(string(out))
	// Registered after TempDir's removal, so it runs before it.
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "--detach", dev).CombinedOutput(); err != nil {
			t.Errorf("losetup --detach %s: %v: %s", dev, err, out)
		}
	})
	return dev
}
