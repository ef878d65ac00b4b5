package shimtools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build is how a tool is compiled: plainly with the go command, or with
// stdiobuf, which swaps the standard library's bufio for package stream.
type Build int

const (
	Plain Build = iota // go build
	Shim               // stdiobuf build
)

// Builds returns both ways, in the order reports name them.
func Builds() [2]Build { return [2]Build{Plain, Shim} }

func (b Build) String() string {
	if b == Shim {
		return "stdiobuf"
	}
	return "go"
}

// Workspace fetches, builds and tests tools in one folder. Its zero value is
// not usable: set Go, Stdiobuf and Dir.
type Workspace struct {
	Go       string // the go command
	Stdiobuf string // the stdiobuf command
	Dir      string // where sources are copied and binaries built

	srcs map[string]string // module@version -> its writable copy
}

// Env is the environment the go command and stdiobuf run in inside a tool's
// module: the caller's, with no workspace file of ours in the way, go.mod
// and go.sum updates allowed (a release's go.sum may lack a test-only
// dependency's line) and no VCS stamping (the copy is not a repository).
func Env() []string {
	env := os.Environ()
	flags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=mod -buildvcs=false")
	return append(env, "GOWORK=off", "GOFLAGS="+flags)
}

// command returns the go command's or stdiobuf's argv for verb.
func (w *Workspace) command(b Build, verb string) []string {
	if b == Shim {
		return []string{w.Stdiobuf, verb}
	}
	return []string{w.Go, verb}
}

// Source returns a writable copy of t's module source, downloading the
// module into the module cache first if it is not there (`go mod download
// -json`, which prints where the cache holds it). Tools of one module share
// one copy.
func (w *Workspace) Source(ctx context.Context, t Tool) (string, error) {
	if dir, ok := w.srcs[t.ID()]; ok {
		return dir, nil
	}
	cmd := exec.CommandContext(ctx, w.Go, "mod", "download", "-json", t.ID())
	cmd.Env = Env()
	cmd.Dir = w.Dir // outside any module: download needs none
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", t.ID(), info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s", t.ID(), err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no Dir in %q", t.ID(), out)
	}
	dst := filepath.Join(w.Dir, "src", strings.NewReplacer("/", "_", "@", "_").Replace(t.ID()))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	// os.CopyFS makes every file writable by its owner (the module cache's
	// are read-only), which tests that write into testdata need.
	if err := os.CopyFS(dst, os.DirFS(info.Dir)); err != nil {
		return "", fmt.Errorf("copying %s: %w", info.Dir, err)
	}
	if w.srcs == nil {
		w.srcs = make(map[string]string)
	}
	w.srcs[t.ID()] = dst
	return dst, nil
}

// Binary returns where Build puts t's binary for b.
func (w *Workspace) Binary(t Tool, b Build) string {
	return filepath.Join(w.Dir, "bin", b.String(), t.Name)
}

// Build compiles t's command with b and returns the binary's path.
func (w *Workspace) Build(ctx context.Context, t Tool, b Build) (string, error) {
	src, err := w.Source(ctx, t)
	if err != nil {
		return "", err
	}
	bin := w.Binary(t, b)
	argv := append(w.command(b, "build"), "-o", bin, t.Main)
	if err := run(ctx, src, argv); err != nil {
		return "", err
	}
	return bin, nil
}

// Test runs the tests of pkgs in t's module with b (`go test -json
// -count=1`, so no cached result stands in for a run) and returns each
// test's outcome. A failing test is a result, not an error: the error is for
// a run that reported nothing.
func (w *Workspace) Test(ctx context.Context, t Tool, b Build, pkgs []string) (Results, error) {
	src, err := w.Source(ctx, t)
	if err != nil {
		return nil, err
	}
	argv := append(w.command(b, "test"), "-json", "-count=1")
	argv = append(argv, pkgs...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = src, Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	res, err := ParseTestJSON(bytes.NewReader(out))
	if err == nil && len(res) == 0 {
		err = errors.New("no test reported")
	}
	if err != nil {
		return nil, fmt.Errorf("%s in %s: %v (%v): %s", strings.Join(argv, " "), src, err, runErr, lastLines(stderr.String(), 10))
	}
	return res, nil
}

// run runs argv in dir with Env, and on failure returns an error holding
// the end of its output.
func run(ctx context.Context, dir string, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s in %s: %v: %s", strings.Join(argv, " "), dir, err, lastLines(string(out), 10))
	}
	return nil
}

// lastLines returns at most the last n lines of s, for error messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// StdiobufPackage is the command this package proves.
const StdiobufPackage = "github.com/stdiobuf/stdiobuf/cmd/stdiobuf"

// BuildStdiobuf compiles cmd/stdiobuf into dir and returns its path. The
// working directory must be inside the stdiobuf module, as it is for its
// tests and for `go run ./bench/shimbench` at the repository's root.
func BuildStdiobuf(ctx context.Context, goCmd, dir string) (string, error) {
	bin := filepath.Join(dir, "stdiobuf")
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", bin, StdiobufPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v: %s", StdiobufPackage, err, lastLines(string(out), 10))
	}
	return bin, nil
}
