//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

func TestCleanups(t *testing.T) {
	var c cleanups
	var order []string
	c.push("a", func() error { order = append(order, "a"); return nil })
	c.push("b", func() error { order = append(order, "b"); return errors.New("busy") })
	c.push("c", func() error { order = append(order, "c"); return nil })
	var log strings.Builder
	if failed := c.run(&log); failed != 1 {
		t.Errorf("run reported %d failures, want 1", failed)
	}
	if diff := cmp.Diff([]string{"c", "b", "a"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if want := "headbench: cleanup: b: busy\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	if failed := c.run(&log); failed != 0 || len(order) != 3 {
		t.Errorf("second run ran steps again: %v", order)
	}
}

func TestRemoveIfEmpty(t *testing.T) {
	dir := t.TempDir()
	full, empty := filepath.Join(dir, "full"), filepath.Join(dir, "empty")
	for _, d := range []string{full, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(full, "results.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := removeIfEmpty(full); err != nil {
		t.Errorf("removeIfEmpty(full): %v", err)
	}
	if err := removeIfEmpty(empty); err != nil {
		t.Errorf("removeIfEmpty(empty): %v", err)
	}
	if _, err := os.Stat(full); err != nil {
		t.Errorf("the full folder is gone: %v", err)
	}
	if _, err := os.Stat(empty); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the empty folder is still there: %v", err)
	}
}

// TestMountFailure: a mount that fails is an error that names the command,
// and what was made for it is removed.
func TestMountFailure(t *testing.T) {
	needMount(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := fsmount.Lookup("xfs128k")
	if err != nil {
		t.Fatal(err)
	}
	fs.Options = "largeio,allocsize=3q"
	var cl cleanups
	_, err = mountFS(t.Context(), dir, fs, in, &cl)
	if err == nil || !strings.Contains(err.Error(), "mount -t xfs -o loop,largeio,allocsize=3q") {
		t.Errorf("mountFS with a bad allocsize: error %v", err)
	}
	if n := cl.run(os.Stderr); n != 0 {
		t.Errorf("%d cleanup steps failed", n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left after cleanup: %v", entries)
	}
}

func TestProgress(t *testing.T) {
	var b strings.Builder
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{w: &b, every: 5 * time.Second, now: func() time.Time { return clock }}
	p.status(0, 10, 90*time.Second, "run 1/2 A")
	clock = clock.Add(time.Second)
	p.status(1, 10, 80*time.Second, "run 1/2 B") // too soon: not shown
	clock = clock.Add(5 * time.Second)
	p.status(2, 10, 3*time.Minute+25*time.Second, "run 1/2 C")
	p.printf("done")
	want := "headbench: [1/10] run 1/2 A; 9 more runs, about 90s to go\n" +
		"headbench: [3/10] run 1/2 C; 7 more runs, about 3m20s to go\n" +
		"headbench: done\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	b.Reset()
	p.tty = true
	p.status(0, 2, time.Second, "x")
	p.printf("y")
	if want := "\r\033[Kheadbench: [1/2] x; 1 more runs, about a few seconds to go\r\033[Kheadbench: y\n"; b.String() != want {
		t.Errorf("terminal output %q, want %q", b.String(), want)
	}
}
