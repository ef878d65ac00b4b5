package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

func TestGoCommandLine(t *testing.T) {
	tests := []struct {
		verb string
		ga   goArgs
		want []string
	}{
		{"build", goArgs{args: []string{"-o", "x", "."}}, []string{"build", "-overlay=/o.json", "-o", "x", "."}},
		{"vet", goArgs{dir: "d", args: []string{"-v", "."}}, []string{"vet", "-C", "d", "-overlay=/o.json", "-v", "."}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, goCommandLine(tt.verb, tt.ga, "/o.json")); diff != "" {
			t.Errorf("goCommandLine(%s, %+v) -want +got:\n%s", tt.verb, tt.ga, diff)
		}
	}
}

// chdirModule is a module whose program prints the Size of a bufio.Reader
// over its standard input, and whose test checks it over a pipe: 65536
// under stdiobuf -policy 64K, 4096 under a plain build.
var chdirModule = map[string]string{
	"go.mod": "module example.com/chdir\n\ngo 1.25\n",
	"main.go": `package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	if _, err := r.Peek(1); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(r.Size())
}
`,
	"main_test.go": `package main

import (
	"bufio"
	"os"
	"testing"
)

func TestSize(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pw.WriteString("x\n")
	pw.Close()
	r := bufio.NewReader(pr)
	r.Peek(1)
	if r.Size() != 65536 {
		t.Errorf("Size %d over a pipe, want 65536 (-policy 64K)", r.Size())
	}
}
`,
}

// TestChdir runs the real go command through stdiobuf with -C, from
// another directory: as the first of go's flags after stdiobuf's own, and
// before the command, for build, run, test, vet and overlay; a late -C and
// a missing directory are refused with one line.
func TestChdir(t *testing.T) {
	testOverlay(t, "-policy", "64K") // skips under -short; makes the overlay once
	dir := t.TempDir()
	for name, text := range chdirModule {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	elsewhere := t.TempDir()
	bin := filepath.Join(t.TempDir(), "prog")
	size := func(t *testing.T) {
		t.Helper()
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader("x\n")
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != "65536" {
			t.Errorf("the program built: %q, %v; want 65536 (-policy 64K)", got, err)
		}
		os.Remove(bin)
	}
	tests := []struct {
		name   string
		args   []string
		stdin  string
		stdout string // what standard output holds, if not ""
		check  func(*testing.T)
	}{
		{"build, -C after stdiobuf's flags", []string{"build", "-policy", "64K", "-C", dir, "-o", bin, "."}, "", "", size},
		{"build, -C first", []string{"build", "-C=" + dir, "-policy=64K", "-o", bin, "."}, "", "", size},
		{"-C before build", []string{"-C", dir, "build", "-policy", "64K", "-o", bin, "."}, "", "", size},
		{"run", []string{"run", "-C", dir, "-policy", "64K", "."}, "x\n", "65536\n", nil},
		{"-C before run", []string{"-C=" + dir, "run", "-policy", "64K", "."}, "x\n", "65536\n", nil},
		{"test", []string{"test", "-policy", "64K", "-C", dir, "-count=1", "."}, "", "", nil},
		{"vet", []string{"vet", "-C", dir, "-policy", "64K", "."}, "", "", nil},
		{"overlay", []string{"-C", dir, "overlay", "-policy", "64K"}, "", testOverlay(t, "-policy", "64K") + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(stdiobufBin, tt.args...)
			cmd.Dir = elsewhere
			cmd.Env = append(os.Environ(), testCacheEnv()...)
			cmd.Stdin = strings.NewReader(tt.stdin)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("stdiobuf %q: %v\n%s%s", tt.args, err, stdout.String(), stderr.String())
			}
			if tt.stdout != "" && stdout.String() != tt.stdout {
				t.Errorf("stdiobuf %q printed %q, want %q", tt.args, stdout.String(), tt.stdout)
			}
			if tt.check != nil {
				tt.check(t)
			}
		})
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "-v", "-C", dir, "."}, 2, "stdiobuf: -C must be the first of go's flags, as go requires: stdiobuf build [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir build [flags] [packages]\n"},
		{[]string{"-C", dir, "vet", "-C", dir, "."}, 2, "stdiobuf: -C must be the first of go's flags, as go requires: stdiobuf vet [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir vet [flags] [packages]\n"},
		{[]string{"-C", dir}, 2, "stdiobuf: -C " + dir + " wants a command after it: stdiobuf -C dir build [flags] [packages]\n"},
		{[]string{"build", "-C", "missing", "."}, 1, "stdiobuf: -C missing: no such file or directory\n"},
		{[]string{"-C", dir, "-h"}, 0, ""},
		{[]string{"-C", dir, "help", "policies"}, 0, ""},
	} {
		if _, stderr, code := runStdiobuf(t, elsewhere, testCacheEnv(), tt.args...); code != tt.code || stderr != tt.want {
			t.Errorf("stdiobuf %q: status %d, stderr %q; want %d, %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
}

// TestHelpNamesResolve runs stdiobuf help, and each help topic, from a
// directory outside the module, and follows what they name: every
// `stdiobuf help TOPIC`, `go help TOPIC` and `go doc ARGS` must run there,
// and every .md page must be an absolute path that exists.
func TestHelpNamesResolve(t *testing.T) {
	elsewhere := t.TempDir()
	env := cacheEnv(t.TempDir())
	commands := regexp.MustCompile(`\b(stdiobuf help|go help|go doc) +([a-z][^\s)]*)`)
	pages := regexp.MustCompile(`[^\s(]*\.md\b`)
	seen := map[string]bool{}
	todo := [][]string{{"help"}}
	for len(todo) > 0 {
		args := todo[0]
		todo = todo[1:]
		stdout, stderr, code := runStdiobuf(t, elsewhere, env, args...)
		if code != 0 || stderr != "" || stdout == "" {
			t.Errorf("stdiobuf %q from %s: status %d, stdout %d bytes, stderr %q", args, elsewhere, code, len(stdout), stderr)
			continue
		}
		for _, m := range commands.FindAllStringSubmatch(stdout, -1) {
			if seen[m[0]] {
				continue
			}
			seen[m[0]] = true
			if m[1] == "stdiobuf help" {
				todo = append(todo, []string{"help", m[2]})
				continue
			}
			cmd := exec.Command("go", strings.Fields(m[0])[1:]...)
			cmd.Dir = elsewhere
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("stdiobuf %q names %q, which fails from %s: %v\n%s", args, m[0], elsewhere, err, out)
			}
		}
		for _, page := range pages.FindAllString(stdout, -1) {
			if seen[page] {
				continue
			}
			seen[page] = true
			if _, err := os.Stat(page); err != nil || !filepath.IsAbs(page) {
				t.Errorf("stdiobuf %q names %s, which is not an absolute path that exists (%v)", args, page, err)
			}
		}
	}
	for _, want := range []string{"stdiobuf help stream", "stdiobuf help policies", "go help build"} {
		if !seen[want] {
			t.Errorf("stdiobuf help never names %q; it named %v", want, seen)
		}
	}
}

// TestSourceDir: the README and docs are named where the binary was
// built from while they are there, and not after, nor under -trimpath.
func TestSourceDir(t *testing.T) {
	withReadme, without := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(withReadme, "README.md"), []byte("# x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(without, "README.md"), 0o755); err != nil { // not a file
		t.Fatal(err)
	}
	self, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{filepath.Join(withReadme, "cmd", "stdiobuf", "streamdoc.go"), withReadme},
		{filepath.Join(without, "cmd", "stdiobuf", "streamdoc.go"), ""},
		{filepath.Join(t.TempDir(), "cmd", "stdiobuf", "streamdoc.go"), ""},
		{"github.com/stdiobuf/stdiobuf/cmd/stdiobuf/streamdoc.go", ""}, // -trimpath
		{thisFile(), self},
	} {
		if got := sourceDir(tt.file); got != tt.want {
			t.Errorf("sourceDir(%s) = %q, want %q", tt.file, got, tt.want)
		}
	}
	if text := moreHelp(""); strings.Contains(text, ".md") || !strings.Contains(text, "-trimpath") {
		t.Errorf("moreHelp without a source directory:\n%s\nwant no page named, and why", text)
	}
}
