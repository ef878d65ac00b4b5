//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

// needGetdelim skips the test when cmd/getdelim does not build: headbench
// has nothing to time without it. It returns the binary, which tests other
// than TestQuickEndToEnd pass with --getdelim to save a link each.
func needGetdelim(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end run skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "getdelim")
	cmd := exec.Command("go", "build", "-o", bin, modulePath+"/cmd/getdelim")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cmd/getdelim does not build, so headbench cannot run: %v\n%s", err, out)
	}
	return bin
}

// quickArgs are the flags of a small, fast run into dir.
func quickArgs(dir string, extra ...string) []string {
	return append([]string{"--quick", "--lines", "400", "--runs", "2", "--sweep", "1K,64K",
		"--out", filepath.Join(dir, "out"), "--cache", filepath.Join(dir, "cache")}, extra...)
}

// readResults reads and checks a run's output folder, and returns
// results.json.
func readResults(t *testing.T, out string) *results {
	t.Helper()
	for _, name := range []string{fileMarkdown, fileJSON, fileBench, fileBars, fileRules, fileSweep} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("output folder: %v", err)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, fileJSON))
	if err != nil {
		t.Fatal(err)
	}
	var r results
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	bench, _ := os.ReadFile(filepath.Join(out, fileBench))
	lines, err := parseBenchFormat(string(bench))
	if err != nil {
		t.Fatalf("bench.txt: %v", err)
	}
	ok := 0
	for _, run := range r.Runs {
		if run.Err == "" {
			ok++
		}
	}
	if len(lines) != ok || ok == 0 {
		t.Errorf("bench.txt has %d result lines, results.json %d good runs", len(lines), ok)
	}
	for _, name := range []string{fileBars, fileRules, fileSweep} {
		svg, _ := os.ReadFile(filepath.Join(out, name))
		svgStats(t, svg)
	}
	md, _ := os.ReadFile(filepath.Join(out, fileMarkdown))
	checkTables(t, string(md))
	return &r
}

func TestQuickEndToEnd(t *testing.T) {
	needGetdelim(t)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	status := run(t.Context(), quickArgs(dir, "--no-mount"), &stdout, &stderr)
	if status != 0 {
		t.Fatalf("status %d\nstderr:\n%s", status, stderr.String())
	}
	r := readResults(t, filepath.Join(dir, "out"))
	if r.Input.Lines != 400 || !r.Input.Generated || len(r.Targets) != 1 || r.Targets[0].Name != "local" {
		t.Errorf("input %+v, targets %+v", r.Input, r.Targets)
	}
	if !strings.HasPrefix(r.Getdelim, "built from /") {
		t.Errorf("getdelim %q, want it built from the checkout", r.Getdelim)
	}
	// Every policy on each path and every sweep size ran; every peer ran
	// or was left out with a reason.
	have := map[string]bool{}
	for _, f := range r.Figures {
		have[f.Key] = f.Wall != nil && f.Wall.N == 2
	}
	for _, path := range pathNames {
		for _, p := range policyNames() {
			if key := policyKey(path, p); !have[key] {
				t.Errorf("figure %s missing or without 2 runs", key)
			}
		}
	}
	for _, key := range []string{"policy=1024", "policy=65536"} {
		if !have[key] {
			t.Errorf("figure %s missing or without 2 runs", key)
		}
	}
	for _, p := range peerNames() {
		left := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "peer "+p+": left out") })
		if !have["peer="+p] && !left {
			t.Errorf("peer %s neither ran nor was reported left out", p)
		}
	}
	for _, f := range r.Figures {
		if f.Kind != kindPeer && (f.Counts == nil || f.Counts.In == nil || f.Counts.Reads == 0) {
			t.Errorf("%s: no read counts from getdelim --stats: %+v", f.Bench, f.Counts)
		}
	}
	if !strings.Contains(stdout.String(), "results in") || !strings.Contains(stderr.String(), "headbench: [1/") {
		t.Errorf("stdout %q\nstderr %q", stdout.String(), stderr.String())
	}
	// A second run reuses the cached input.
	stderr.Reset()
	if status := run(t.Context(), quickArgs(dir, "--no-mount", "--peers", "none", "--sweep", "none", "--policies", "bufsiz"), &stdout, &stderr); status != 0 {
		t.Fatalf("second run: status %d\n%s", status, stderr.String())
	}
	if !strings.Contains(stderr.String(), "reusing") {
		t.Errorf("second run did not reuse the input:\n%s", stderr.String())
	}
}

func TestInputFlag(t *testing.T) {
	gd := needGetdelim(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("one\ntwo\nthree without newline"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"--getdelim", gd, "--input", in, "--runs", "1", "--no-mount", "--sweep", "none", "--peers", "cat", "--policies", "bufsiz", "--out", filepath.Join(dir, "out")}
	if status := run(t.Context(), args, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d\n%s", status, stderr.String())
	}
	data, _ := os.ReadFile(filepath.Join(dir, "out", fileJSON))
	var r results
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Input.Lines != 3 || r.Input.Bytes != 29 || r.Input.Generated {
		t.Errorf("input %+v, want 3 lines, 29 bytes, not generated", r.Input)
	}
	if want := gd + " (--getdelim)"; r.Getdelim != want {
		t.Errorf("getdelim %q, want %q", r.Getdelim, want)
	}

	for _, bad := range []string{filepath.Join(dir, "missing"), dir} {
		stderr.Reset()
		if status := run(t.Context(), []string{"--input", bad, "--no-mount", "--out", filepath.Join(dir, "o2")}, &stdout, &stderr); status != 1 {
			t.Errorf("--input %s: status %d, want 1; stderr %q", bad, status, stderr.String())
		}
	}
}

// TestOutputFolderUnwritable: the run goes on and results.md goes to
// standard output.
func TestOutputFolderUnwritable(t *testing.T) {
	gd := needGetdelim(t)
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"--getdelim", gd, "--lines", "50", "--runs", "1", "--no-mount", "--sweep", "none", "--peers", "none",
		"--policies", "bufsiz", "--cache", filepath.Join(dir, "cache"), "--out", filepath.Join(blocker, "out")}
	if status := run(t.Context(), args, &stdout, &stderr); status != 1 {
		t.Errorf("status %d, want 1", status)
	}
	if !strings.Contains(stderr.String(), "output folder") || !strings.Contains(stdout.String(), "# headbench") {
		t.Errorf("stdout %q\nstderr %q", clip(stdout.String(), 200), stderr.String())
	}
}

// mountsUnder returns the mount points under dir.
func mountsUnder(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], dir) {
			found = append(found, f[4])
		}
	}
	return found
}

// needMount skips the test unless every file system of the default run
// can be mounted.
func needMount(t *testing.T) {
	t.Helper()
	for _, name := range defaultFS {
		fs, err := fsmount.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := fs.Available(); !ok {
			t.Skipf("cannot mount %s here: %s", name, why)
		}
	}
}

// mountTest prepares a test that mounts: it skips unless getdelim builds
// and mounts can be made, returns the getdelim binary, and points TMPDIR, where headbench makes its
// images and mount points, to a folder of the test's own.
func mountTest(t *testing.T) (dir, tmp, getdelim string) {
	t.Helper()
	needMount(t)
	getdelim = needGetdelim(t)
	dir = t.TempDir()
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	return dir, tmp, getdelim
}

// checkNothingLeft checks that a run left no mount under dir and nothing
// in tmp.
func checkNothingLeft(t *testing.T, dir, tmp string) {
	t.Helper()
	if m := mountsUnder(t, dir); len(m) > 0 {
		t.Errorf("still mounted: %v", m)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// TestMountsEndToEnd runs on the default file systems and checks the
// st_blksize the figures saw and the buffers they chose, then that nothing
// stays mounted or on disk.
func TestMountsEndToEnd(t *testing.T) {
	dir, tmp, gd := mountTest(t)
	var stdout, stderr bytes.Buffer
	status := run(t.Context(), quickArgs(dir, "--getdelim", gd, "--peers", "c-default,cat", "--policies", "bufio,blksize"), &stdout, &stderr)
	if status != 0 {
		t.Fatalf("status %d\n%s", status, stderr.String())
	}
	r := readResults(t, filepath.Join(dir, "out"))
	got := map[string]int64{}
	for _, tg := range r.Targets {
		got[tg.Name] = tg.Blksize
	}
	want := map[string]int64{"ext4": 4096, "ext4-1k": 1024, "tmpfs": int64(os.Getpagesize()), "xfs128k": 128 << 10, "xfs1m": 1 << 20}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("st_blksize per target (-want +got):\n%s", diff)
	}
	for _, f := range r.Figures {
		if f.Key == "policy=blksize" && f.Target == "xfs128k" && (f.Counts == nil || f.Counts.In.Size != 128<<10) {
			t.Errorf("getdelim's input buffer on xfs128k: %+v, want 131072", f.Counts)
		}
		// Every policy figure has its ratios to bufio and to the C loop.
		if f.Kind == kindPolicy && (f.VsBufio == nil || f.VsC == nil || f.Buffers == 0) {
			t.Errorf("%s: ratio to bufio %v, to the C loop %v, buffers %d", f.Bench, f.VsBufio, f.VsC, f.Buffers)
		}
	}
	checkNothingLeft(t, dir, tmp)
}

// TestInterruptCleansUp interrupts a run once its mounts exist: it must
// exit 130, unmount and remove everything.
func TestInterruptCleansUp(t *testing.T) {
	dir, tmp, gd := mountTest(t)
	o, err := parseFlags(quickArgs(dir, "--getdelim", gd, "--fs", "xfs128k", "--runs", "100"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	var stdout, stderr bytes.Buffer
	mounted := 0
	s := &session{o: o, out: &stdout, log: &stderr, prog: newProgress(&stderr), afterSetup: func() {
		mounted = len(mountsUnder(t, tmp))
		cancel(interrupted{syscall.SIGINT})
	}}
	if status := s.main(ctx); status != 130 {
		t.Errorf("status %d, want 130\n%s", status, stderr.String())
	}
	if mounted != 1 {
		t.Errorf("%d mounts when interrupted, want 1", mounted)
	}
	checkNothingLeft(t, dir, tmp)
	if _, err := os.Stat(filepath.Join(dir, "out", fileJSON)); err == nil {
		t.Error("an interrupted run wrote results")
	}
}

// TestInterruptMessage: Ctrl-C gives status 130 and a plain message, not
// the signal's name.
func TestInterruptMessage(t *testing.T) {
	gd := needGetdelim(t)
	dir := t.TempDir()
	o, err := parseFlags(quickArgs(dir, "--getdelim", gd, "--no-mount", "--peers", "none"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	var stdout, stderr bytes.Buffer
	s := &session{o: o, out: &stdout, log: &stderr, prog: newProgress(&stderr), afterSetup: func() {
		cancel(interrupted{syscall.SIGINT})
	}}
	if status := s.main(ctx); status != 130 {
		t.Errorf("status %d, want 130", status)
	}
	if got, want := stderr.String(), "headbench: interrupted: removed what the run had made\n"; !strings.HasSuffix(got, want) {
		t.Errorf("standard error ends %q, want %q", got, want)
	}
	if stdout.Len() > 0 {
		t.Errorf("standard output %q, want nothing", stdout.String())
	}
}
