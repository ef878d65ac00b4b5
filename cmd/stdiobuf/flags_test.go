package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelp: help, -h and help COMMAND document the commands, the flags,
// the variables a built program reads, the cache (where, how big, how to
// clear it) and where to read more.
func TestHelp(t *testing.T) {
	cache := t.TempDir()
	dir := filepath.Join(cache, "stdiobuf", "overlays")
	want := []string{"build, install, run, test, vet", "overlay", "version", "-stdout", "recompiles every package that",
		"-policy P", "STDIOBUF_POLICY", "_STDBUF_O", "stdbuf -oL", dir + " (now 0, 0.0 MB", "rm -rf " + dir, "go clean -cache", "README"}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "build"}, {"help", "test"}, {"build", "-h"}, {"test", "-o", "x", "-help"}, {"overlay", "-h"}} {
		stdout, stderr, code := runStdiobuf(t, t.TempDir(), cacheEnv(cache), args...)
		if code != 0 || stderr != "" {
			t.Errorf("stdiobuf %q: status %d, stderr %q", args, code, stderr)
		}
		for _, w := range want {
			if args[0] == "overlay" && strings.HasPrefix(w, "build,") {
				continue
			}
			if !strings.Contains(stdout, w) {
				t.Errorf("stdiobuf %q does not say %q:\n%s", args, w, stdout)
			}
		}
	}
	if _, stderr, code := runStdiobuf(t, t.TempDir(), cacheEnv(cache), "help", "frob"); code != 2 || stderr != "stdiobuf: unknown command \"frob\" (run stdiobuf help)\n" {
		t.Errorf("stdiobuf help frob: status %d, stderr %q", code, stderr)
	}
}

// TestPolicyBuiltIn: -policy, written after go's own flags as -stdout is,
// builds the policy in as the program's default; STDIOBUF_POLICY still
// overrides it, and stdiobuf version says which.
func TestPolicyBuiltIn(t *testing.T) {
	testOverlay(t) // skips under -short
	bin := filepath.Join(t.TempDir(), "heldin")
	if _, stderr, code := runStdiobuf(t, ".", testCacheEnv(), "build", "-o", bin, "-stdout", "-policy", "64K", "./testdata/heldin"); code != 0 {
		t.Fatalf("stdiobuf build -o BIN -stdout -policy 64K: status %d\n%s", code, stderr)
	}
	size := func(env ...string) string {
		cmd := exec.Command(bin, "size", "-")
		cmd.Stdin = strings.NewReader("x\n") // a pipe, whose st_blksize is 4096
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := size(); got != "65536" {
		t.Errorf("built with -policy 64K: Reader.Size() %s over a pipe, want 65536", got)
	}
	if got := size("STDIOBUF_POLICY=bufio"); got != "4096" {
		t.Errorf("built with -policy 64K, run with STDIOBUF_POLICY=bufio: Reader.Size() %s, want 4096", got)
	}
	for policy, want := range map[string]string{"": "policy: blksize (the default;", "64K": "policy: 65536 (built in by -policy;", "COREUTILS": "policy: coreutils (built in by -policy;"} {
		args := []string{"version"}
		if policy != "" {
			args = append(args, "-policy="+policy)
		}
		stdout, stderr, code := runStdiobuf(t, ".", testCacheEnv(), args...)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("stdiobuf %q: status %d, %s%s; want %q", args, code, stdout, stderr, want)
		}
	}
}
