package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/overlay"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		verb string
		args []string
		want goArgs
	}{
		{"build", []string{"./..."}, goArgs{args: []string{"./..."}}},
		{"build", []string{"-overlay=o.json", "-o", "x", "."}, goArgs{overlay: "o.json", args: []string{"-o", "x", "."}}},
		{"build", []string{"--overlay", "o.json", "."}, goArgs{overlay: "o.json", args: []string{"."}}},
		{"build", []string{"-C", "d", "-tags", "t", "."}, goArgs{dir: "d", args: []string{"-tags", "t", "."}}},
		{"build", []string{"-C=d", "."}, goArgs{dir: "d", args: []string{"."}}},
		// -C is the first of go's flags; stdiobuf's may come before it.
		{"build", []string{"-stdout", "-C", "d", "-o", "x", "."}, goArgs{dir: "d", opts: overlay.Options{Stdout: true}, args: []string{"-o", "x", "."}}},
		{"install", []string{"-policy", "64K", "--C=d", "-stdout", "."}, goArgs{dir: "d", opts: overlay.Options{Stdout: true, Policy: "64K"}, args: []string{"."}}},
		{"run", []string{"-C", "d", ".", "-C", "x"}, goArgs{dir: "d", args: []string{".", "-C", "x"}}},
		{"test", []string{"-C", "d", ".", "-args", "-C", "x"}, goArgs{dir: "d", args: []string{".", "-args", "-C", "x"}}},
		{"overlay", []string{"-C", "d", "-stdout"}, goArgs{dir: "d", opts: overlay.Options{Stdout: true}}},
		{"run", []string{"-race", "main.go", "-overlay=x"}, goArgs{args: []string{"-race", "main.go", "-overlay=x"}}},
		{"run", []string{"-o", "bin", ".", "arg"}, goArgs{args: []string{"-o", "bin", ".", "arg"}}},
		{"test", []string{"./...", "-run", "X", "-overlay=o"}, goArgs{overlay: "o", args: []string{"./...", "-run", "X"}}},
		{"test", []string{".", "-args", "-overlay=o"}, goArgs{args: []string{".", "-args", "-overlay=o"}}},
		{"vet", []string{"--", "-overlay=o"}, goArgs{args: []string{"--", "-overlay=o"}}},
		// stdiobuf's own flags, anywhere before the packages.
		{"build", []string{"-o", "x", "-stdout", "."}, goArgs{opts: overlay.Options{Stdout: true}, args: []string{"-o", "x", "."}}},
		{"build", []string{"--stdout", "-policy", "64K", "-v"}, goArgs{opts: overlay.Options{Stdout: true, Policy: "64K"}, args: []string{"-v"}}},
		{"install", []string{"-tags", "-stdout", "--policy=coreutils", "."}, goArgs{opts: overlay.Options{Policy: "coreutils"}, args: []string{"-tags", "-stdout", "."}}},
		{"run", []string{"-stdout", "main.go", "-stdout", "-h"}, goArgs{opts: overlay.Options{Stdout: true}, args: []string{"main.go", "-stdout", "-h"}}},
		{"test", []string{"-policy=bufio", "./...", "-stdout", "-policy", "p"}, goArgs{opts: overlay.Options{Policy: "bufio"}, args: []string{"./...", "-stdout", "-policy", "p"}}},
		{"vet", []string{"-h"}, goArgs{help: true}},
		{"overlay", []string{"-stdout", "-policy=bufsiz"}, goArgs{opts: overlay.Options{Stdout: true, Policy: "bufsiz"}}},
		{"build", []string{"-files", "-o", "x", "."}, goArgs{opts: overlay.Options{Stdout: true, Files: true}, args: []string{"-o", "x", "."}}},
		{"version", []string{"--files"}, goArgs{opts: overlay.Options{Stdout: true, Files: true}}},
		{"test", []string{".", "-files"}, goArgs{args: []string{".", "-files"}}},
	}
	for _, tt := range tests {
		got, err := parseArgs(tt.verb, tt.args)
		if err != nil {
			t.Errorf("parseArgs(%s, %q): %v", tt.verb, tt.args, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(goArgs{})); diff != "" {
			t.Errorf("parseArgs(%s, %q) -want +got:\n%s", tt.verb, tt.args, diff)
		}
	}
	for _, tt := range []struct {
		verb string
		args []string
		want string
	}{
		{"build", []string{"-o"}, "flag needs an argument: -o"},
		{"build", []string{"-policy"}, "flag needs an argument: -policy"},
		{"build", []string{"-stdout=true", "."}, "-stdout=true takes no value"},
		{"build", []string{".", "-stdout"}, "-stdout goes before the packages: stdiobuf build [-stdout] [-files] [-policy P] [go flags] [packages]"},
		{"vet", []string{"./...", "-policy=bufio"}, "-policy=bufio goes before the packages: stdiobuf vet [-stdout] [-files] [-policy P] [go flags] [packages]"},
		{"build", []string{"-v", "-C", "d"}, "-C must be the first of go's flags, as go requires: stdiobuf build [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir build [flags] [packages]"},
		{"build", []string{"-C", "a", "-C=b"}, "-C=b must be the first of go's flags, as go requires: stdiobuf build [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir build [flags] [packages]"},
		{"test", []string{".", "-C", "d"}, "-C must be the first of go's flags, as go requires: stdiobuf test [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir test [flags] [packages]"},
		{"vet", []string{"-C"}, "flag needs an argument: -C"},
		{"build", []string{"-C=", "."}, "-C= needs a directory"},
	} {
		if _, err := parseArgs(tt.verb, tt.args); err == nil || err.Error() != tt.want {
			t.Errorf("parseArgs(%s, %q): %v, want %q", tt.verb, tt.args, err, tt.want)
		}
	}
}

func writeOverlay(t *testing.T, path string, replace map[string]string) {
	t.Helper()
	b, err := json.Marshal(overlayFile{Replace: replace})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMergeOverlay(t *testing.T) {
	dir := t.TempDir()
	goroot := filepath.Join(dir, "goroot")
	ours := filepath.Join(dir, "ours.json")
	bufioFile := filepath.Join(goroot, "src", "bufio", "bufio.go")
	writeOverlay(t, ours, map[string]string{bufioFile: "/cache/bufio.go"})

	user := filepath.Join(dir, "user.json")
	writeOverlay(t, user, map[string]string{"/src/x/a.go": "/tmp/a.go"})
	merged, err := mergeOverlay(user, "", ours, goroot)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(merged)
	var got overlayFile
	if err := readJSON(merged, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{bufioFile: "/cache/bufio.go", "/src/x/a.go": "/tmp/a.go"}
	if diff := cmp.Diff(want, got.Replace); diff != "" {
		t.Errorf("merged -want +got:\n%s", diff)
	}

	clash := filepath.Join(dir, "clash.json")
	writeOverlay(t, clash, map[string]string{filepath.Join(goroot, "src", "bufio", "scan.go"): ""})
	if _, err := mergeOverlay(clash, "", ours, goroot); err == nil || !strings.Contains(err.Error(), "replaces "+filepath.Join(goroot, "src", "bufio", "scan.go")) {
		t.Errorf("merging an overlay of bufio's files: %v, want a refusal naming scan.go", err)
	}
	if _, err := mergeOverlay(filepath.Join(dir, "missing.json"), "", ours, goroot); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("merging a missing overlay: %v, want an error naming it", err)
	}
}

// stdiobufBin is the command built once for the tests that run it, in
// testDir, which the tests' builds share.
var stdiobufBin, testDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "stdiobuf-test-")
	if err != nil {
		panic(err)
	}
	testDir = dir
	bin := filepath.Join(dir, "stdiobuf")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err == nil {
		stdiobufBin = bin
	} else {
		os.Stderr.Write(out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runStdiobuf runs the command with env added to the environment, in dir,
// and returns its standard output, standard error and exit status.
func runStdiobuf(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if stdiobufBin == "" {
		t.Skip("cmd/stdiobuf did not build (no go command?)")
	}
	cmd := exec.Command(stdiobufBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// fakeGo puts a go command made of script first on a PATH and returns
// that PATH.
func fakeGo(t *testing.T, script string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake go command is a shell script")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// cacheEnv points the user cache directory at dir.
func cacheEnv(dir string) []string {
	return []string{"XDG_CACHE_HOME=" + dir, "HOME=" + dir}
}

func TestBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an overlay; -short skips it")
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	goroot, err := exec.Command(realGo, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	// A GOROOT whose bufio has a function stream lacks.
	fake := t.TempDir()
	bufioDir := filepath.Join(fake, "src", "bufio")
	if err := os.MkdirAll(bufioDir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(strings.TrimSpace(string(goroot)), "src", "bufio"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "src", "bufio", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "scan.go" {
			b = append(b, "\n// ScanSentences is new in this fake release.\nfunc ScanSentences(data []byte, atEOF bool) (int, []byte, error) { return 0, nil, nil }\n"...)
		}
		if err := os.WriteFile(filepath.Join(bufioDir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		env      []string
		args     []string
		wantCode int
		wantLine string // standard error's first line holds it
		oneLine  bool   // and standard error is that one line
	}{
		{"go fails", []string{"PATH=" + fakeGo(t, "echo 'go: simulated failure' >&2; exit 3\n")}, []string{"build", "."},
			3, "stdiobuf: go env GOROOT GOVERSION: go: simulated failure", true},
		{"bufio API stream lacks", []string{"PATH=" + fakeGo(t, "if [ \"$1\" = env ]; then echo "+fake+"; echo go1.99.1; echo "+fake+"/modcache; echo linux; echo amd64; exit 0; fi\nexit 9\n")}, []string{"build", "."},
			1, "stdiobuf: bufio API mismatch: go1.99.1's bufio has ScanSentences (func([]byte, bool) (int, []byte, error)), which stream lacks", true},
		{"unwritable cache", cacheEnv(filepath.Join(notDir, "cache")), []string{"build", "."},
			1, "stdiobuf: cache directory: mkdir " + notDir + ": not a directory", true},
		{"flag go rejects", nil, []string{"build", "-notaflag", "."},
			2, "flag provided but not defined: -notaflag", false},
		{"unknown command", nil, []string{"frobnicate"},
			2, `stdiobuf: unknown command "frobnicate" (run stdiobuf help)`, true},
		{"flag before the command", nil, []string{"-stdout", "build", "."},
			2, "stdiobuf: -stdout goes after the command: stdiobuf build -stdout ... (run stdiobuf help)", true},
		{"flag after the packages", nil, []string{"build", ".", "-stdout"},
			2, "stdiobuf: -stdout goes before the packages: stdiobuf build [-stdout] [-files] [-policy P] [go flags] [packages]", true},
		{"bad policy", nil, []string{"build", "-policy", "bogus", "."},
			2, `stdiobuf: -policy: stream: invalid policy "bogus": want blksize, `, true},
		{"overlay with a package", nil, []string{"overlay", "."},
			2, "stdiobuf: overlay takes no arguments but -C dir, -stdout, -files and -policy P", true},
		{"overlay replacing bufio", nil, []string{"build", "-overlay=" + filepath.Join(fake, "o.json"), "."},
			1, "replaces " + filepath.Join(strings.TrimSpace(string(goroot)), "src", "bufio", "bufio.go") + ", which stdiobuf's overlay replaces", true},
	}
	writeOverlay(t, filepath.Join(fake, "o.json"), map[string]string{filepath.Join(strings.TrimSpace(string(goroot)), "src", "bufio", "bufio.go"): ""})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := append(testCacheEnv(), tt.env...)
			_, stderr, code := runStdiobuf(t, t.TempDir(), env, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			first, rest, _ := strings.Cut(stderr, "\n")
			if !strings.Contains(first, tt.wantLine) || (tt.oneLine && rest != "") {
				t.Errorf("stderr:\n%s\nwant first line with %q (and no more: %v)", stderr, tt.wantLine, tt.oneLine)
			}
		})
	}
	// Nothing partial was left in the cache by the failures.
	shared := filepath.Join(testDir, "cache", "stdiobuf", "overlays")
	entries, err = os.ReadDir(shared)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(shared, e.Name(), "overlay.json")); err != nil {
			t.Errorf("cache entry %s has no overlay.json: a partial overlay", e.Name())
		}
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.25.5.linux-amd64", "/root/go/pkg/mod", true},
		{"/root/go/pkg/mod", "/root/go/pkg/mod", true},
		{"/usr/local/go", "/root/go/pkg/mod", false},
		{"/root/go/pkg/mod2/x", "/root/go/pkg/mod", false},
		{"/root/go/pkg/..mod", "/root/go/pkg", true},
	} {
		if got := within(tt.path, tt.dir); got != tt.want {
			t.Errorf("within(%s, %s) = %v, want %v", tt.path, tt.dir, got, tt.want)
		}
	}
}

func TestGoflagsOverlay(t *testing.T) {
	for goflags, want := range map[string]string{
		"":                              "",
		"-mod=mod":                      "",
		"-mod=mod -overlay=/tmp/o.json": "/tmp/o.json",
		"--overlay=a.json -tags=x":      "a.json",
	} {
		t.Setenv("GOFLAGS", goflags)
		if got := goflagsOverlay(); got != want {
			t.Errorf("GOFLAGS=%q: overlay %q, want %q", goflags, got, want)
		}
	}
}

// TestConcurrentOverlay starts three stdiobuf processes on an empty cache
// at once: each must get the same, complete overlay, and the cache must
// hold that overlay alone, with no temporary directory left.
func TestConcurrentOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an overlay; -short skips it")
	}
	if stdiobufBin == "" {
		t.Skip("cmd/stdiobuf did not build")
	}
	cache := t.TempDir()
	const n = 3
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for i := range cmds {
		cmds[i] = exec.Command(stdiobufBin, "overlay")
		cmds[i].Env = append(os.Environ(), cacheEnv(cache)...)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("stdiobuf overlay %d: %v: %s", i, err, outs[i].String())
		}
	}
	path := strings.TrimSpace(outs[0].String())
	for i := range outs {
		if got := strings.TrimSpace(outs[i].String()); got != path {
			t.Errorf("process %d printed %q, process 0 %q", i, got, path)
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(cache, "stdiobuf", "overlays"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "goroot-") { // a toolchain from the module cache is linked
			names = append(names, e.Name())
		}
	}
	if diff := cmp.Diff([]string{filepath.Base(filepath.Dir(path))}, names); diff != "" {
		t.Errorf("cache holds -want +got:\n%s", diff)
	}
}

// TestLibraryBuildMode: -stdout is refused for a library a C program
// loads, whose exit runs no Go exit hook; the mode may come as one
// argument or two, the last one standing.
func TestLibraryBuildMode(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", "x", "./..."}, ""},
		{[]string{"-buildmode=c-shared", "."}, "c-shared"},
		{[]string{"-buildmode", "c-archive", "."}, "c-archive"},
		{[]string{"--buildmode=c-shared"}, "c-shared"},
		{[]string{"-buildmode=c-shared", "-buildmode=exe"}, ""},
		{[]string{"-buildmode=pie"}, ""},
	}
	for _, tc := range tests {
		if got := libraryBuildMode(tc.args); got != tc.want {
			t.Errorf("libraryBuildMode(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
