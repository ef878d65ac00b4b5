package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// overlays are the overlays the tests generated, by the arguments of
// `stdiobuf overlay`, each made once into a cache in testDir.
var overlays struct {
	mu    sync.Mutex
	paths map[string]string
}

// testCacheEnv is the environment that points stdiobuf at the tests'
// cache.
func testCacheEnv() []string { return cacheEnv(filepath.Join(testDir, "cache")) }

// testOverlay returns the overlay `stdiobuf overlay args...` prints,
// generated into the tests' cache the first time.
func testOverlay(t *testing.T, args ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("generates an overlay and compiles with it; -short skips it")
	}
	if stdiobufBin == "" {
		t.Skip("cmd/stdiobuf did not build")
	}
	overlays.mu.Lock()
	defer overlays.mu.Unlock()
	key := strings.Join(args, " ")
	if p, ok := overlays.paths[key]; ok {
		return p
	}
	cmd := exec.Command(stdiobufBin, append([]string{"overlay"}, args...)...)
	cmd.Env = append(os.Environ(), testCacheEnv()...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stdiobuf overlay %s: %v: %s", key, err, stderr.String())
	}
	if overlays.paths == nil {
		overlays.paths = make(map[string]string)
	}
	overlays.paths[key] = strings.TrimSpace(string(out))
	return overlays.paths[key]
}

// TestGoBufioTests runs the toolchain's own bufio tests on the generated
// bufio. The only change to them is export_test.go's defaultBufSize, which
// stream calls bufioSize (internal/overlay's testRenames).
func TestGoBufioTests(t *testing.T) {
	ov := testOverlay(t)
	out, err := exec.Command("go", "test", "-count=1", "-overlay="+ov, "bufio").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -overlay bufio: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// TestOverlayStaysLight checks the generated bufio's dependencies: bufio's
// own, those of package os, which stream needs for the standard streams
// and which every program that hands bufio a file links anyway, strconv
// for stdbuf's sizes and math for its constants; nothing else: no fmt, reflect or
// path/filepath pulled into every program.
func TestOverlayStaysLight(t *testing.T) {
	ov := testOverlay(t)
	deps := func(args ...string) map[string]bool {
		out, err := exec.Command("go", append([]string{"list", "-deps"}, args...)...).Output()
		if err != nil {
			t.Fatalf("go list -deps %q: %v", args, err)
		}
		m := make(map[string]bool)
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	allowed := deps("bufio", "os", "internal/syscall/unix", "strconv", "math")
	ours := deps("-overlay="+ov, "bufio")
	for p := range ours {
		if !allowed[p] {
			t.Errorf("the generated bufio depends on %s, which neither bufio nor os needs", p)
		}
	}
	t.Logf("go list -deps bufio: %d packages; with the overlay: %d", len(deps("bufio")), len(ours))
}

// TestOtherToolchain builds the held-in program with the toolchain named
// by $STDIOBUF_OTHER_GO (such as go1.25.5), which GOTOOLCHAIN downloads
// into the module cache, plainly and with -files, and runs that
// toolchain's bufio tests on its overlay. .ci/run sets it; a plain go test leaves it out, as it
// downloads a toolchain.
func TestOtherToolchain(t *testing.T) {
	version := os.Getenv("STDIOBUF_OTHER_GO")
	if version == "" {
		t.Skip("set STDIOBUF_OTHER_GO=go1.25.5 (say) to try another toolchain")
	}
	testOverlay(t) // skips under -short
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "heldin", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	minor := strings.Join(strings.Split(strings.TrimPrefix(version, "go"), ".")[:2], ".")
	for name, b := range map[string][]byte{
		"main.go": src,
		"go.mod":  []byte("module example.com/heldin\n\ngo " + minor + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(testCacheEnv(), "GOTOOLCHAIN="+version)
	out, stderr, code := runStdiobuf(t, dir, env, "version")
	if code != 0 || !strings.Contains(out, " for "+version+" ") {
		t.Fatalf("stdiobuf version with GOTOOLCHAIN=%s: status %d, %q %s", version, code, out, stderr)
	}
	// Plainly, and with -files, whose overlay of os wraps what the
	// release has of os.Root.
	for _, flags := range [][]string{nil, {"-files"}} {
		args := append(append([]string{"build"}, flags...), "-o", "heldin", ".")
		if _, stderr, code := runStdiobuf(t, dir, env, args...); code != 0 {
			t.Fatalf("stdiobuf %v with %s: status %d: %s", args, version, code, stderr)
		}
		cmd := exec.Command(filepath.Join(dir, "heldin"), "size", "-")
		cmd.Stdin = strings.NewReader("x\n")
		cmd.Env = append(os.Environ(), "_STDBUF_I=65536")
		if got, err := cmd.Output(); err != nil || strings.TrimSpace(string(got)) != "65536" {
			t.Errorf("heldin built by stdiobuf %v with %s under _STDBUF_I=65536: %q, %v; want 65536", args, version, got, err)
		}
	}
	if _, stderr, code := runStdiobuf(t, dir, env, "test", "-count=1", "bufio"); code != 0 {
		t.Errorf("stdiobuf test bufio with %s: status %d: %s", version, code, stderr)
	}
}
