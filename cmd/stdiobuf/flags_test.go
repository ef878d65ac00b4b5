package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHelp: help, -h and help COMMAND document the commands, the flags,
// the variables a built program reads, the cache (where, how big, how to
// clear it) and where to read more.
func TestHelp(t *testing.T) {
	cache := t.TempDir()
	dir := filepath.Join(cache, "stdiobuf", "overlays")
	want := []string{"build, install, run, test, vet", "overlay", "version", "-stdout", "recompiles every package that", "-files", "Implies -stdout",
		"-policy P", "STDIOBUF_POLICY", "_STDBUF_O", "STDIOBUF_MAXDELAY", "stdbuf -oL", dir + " (now 0, 0.0 MB", "rm -rf " + dir, "go clean -cache", "README"}
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

func TestGoflagsFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  -mod=mod   -v ", []string{"-mod=mod", "-v"}},
		{`-mod=mod '-overlay=/a b/o.json' "-tags=x y"`, []string{"-mod=mod", "-overlay=/a b/o.json", "-tags=x y"}},
		{`"-ldflags=-X 'a=b'"`, []string{"-ldflags=-X 'a=b'"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, goflagsFields(tt.in)); diff != "" {
			t.Errorf("goflagsFields(%q) -want +got:\n%s", tt.in, diff)
		}
	}
}

func TestWithOverlay(t *testing.T) {
	tests := []struct {
		goflags, file, want, wantErr string
	}{
		{"", "/c/o.json", "-overlay=/c/o.json", ""},
		{"-mod=mod -overlay=/mine.json", "/c/o.json", "-mod=mod -overlay=/mine.json -overlay=/c/o.json", ""},
		{"-v", "/a b/o.json", "-v '-overlay=/a b/o.json'", ""},
		{"", "/it's/o.json", `"-overlay=/it's/o.json"`, ""},
		{"", `/"it's"/o.json`, "", "holds both kinds of quote"},
	}
	for _, tt := range tests {
		got, err := withOverlay(tt.goflags, tt.file)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("withOverlay(%q, %q): %v, want an error with %q", tt.goflags, tt.file, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("withOverlay(%q, %q) = %q, %v; want %q", tt.goflags, tt.file, got, err, tt.want)
		}
		if fields := goflagsFields(got); fields[len(fields)-1] != "-overlay="+tt.file {
			t.Errorf("withOverlay(%q, %q) = %q, which splits into %q", tt.goflags, tt.file, got, fields)
		}
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

// TestNestedGoBuild runs `stdiobuf test` on a module whose TestMain builds
// a helper with `go build`, as goawk's tests do: the helper must be built
// with the overlay too, also when GOFLAGS holds an -overlay of the user's.
func TestNestedGoBuild(t *testing.T) {
	testOverlay(t) // skips under -short
	user := filepath.Join(t.TempDir(), "user.json")
	writeOverlay(t, user, map[string]string{filepath.Join(t.TempDir(), "none.go"): ""})
	for _, goflags := range []string{"", "-overlay=" + user} {
		env := append(testCacheEnv(), "GOFLAGS="+goflags)
		if stdout, stderr, code := runStdiobuf(t, filepath.Join("testdata", "nested"), env, "test", "-count=1", "."); code != 0 {
			t.Errorf("stdiobuf test with GOFLAGS=%q: status %d\n%s%s", goflags, code, stdout, stderr)
		}
	}
}

func TestStdCoverPattern(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-cover", "./..."}, ""},
		{[]string{"-coverpkg=./...,example.com/m/..."}, ""},
		{[]string{"-coverpkg", "../x,/abs/y"}, ""},
		{[]string{"-coverpkg=..."}, "..."},
		{[]string{"-coverpkg=b...,example.com/..."}, "b..."},
		{[]string{"--coverpkg", "./...,std"}, "std"},
		{[]string{"-coverpkg=example.com/m,bufio"}, "bufio"},
		{[]string{"-coverpkg=..."}, "..."},
		{[]string{"-coverpkg=b...,example.com/..."}, "b..."},
		{[]string{".", "-args", "-coverpkg=all"}, ""},
	}
	for _, tt := range tests {
		if got := stdCoverPattern(tt.args); got != tt.want {
			t.Errorf("stdCoverPattern(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestCover: stdiobuf test -cover, and -coverpkg of the module's own
// packages, test stream; -coverpkg=all, which would instrument the
// toolchain's own bufio read from disk, is refused with one line.
func TestCover(t *testing.T) {
	testOverlay(t) // skips under -short
	dir := filepath.Join("testdata", "nested")
	for _, args := range [][]string{{"-cover"}, {"-cover", "-coverpkg=./..."}} {
		if stdout, stderr, code := runStdiobuf(t, dir, testCacheEnv(), append(append([]string{"test", "-count=1"}, args...), ".")...); code != 0 {
			t.Errorf("stdiobuf test %q: status %d\n%s%s", args, code, stdout, stderr)
		}
	}
	_, stderr, code := runStdiobuf(t, dir, testCacheEnv(), "test", "-cover", "-coverpkg=all", ".")
	if first, rest, _ := strings.Cut(stderr, "\n"); code != 2 || !strings.HasPrefix(first, "stdiobuf: -coverpkg all may cover the standard library") || rest != "" {
		t.Errorf("stdiobuf test -coverpkg=all: status %d, stderr %q; want status 2 and one line", code, stderr)
	}
}
