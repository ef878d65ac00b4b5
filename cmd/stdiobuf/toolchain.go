package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/stdiobuf/stdiobuf"
	"github.com/stdiobuf/stdiobuf/internal/overlay"
)

// goTool is the go command stdiobuf runs, and the toolchain it selects.
type goTool struct {
	path string // the go command: on PATH, or $GOROOT/bin/go
	dir  string // where it runs: go's -C directory, or "" for the current one
	tc   overlay.Toolchain
}

// findGo finds the go command and asks it, run in dir, which toolchain
// it will compile with: go applies GOTOOLCHAIN and go.mod there first.
func findGo(dir string) (*goTool, error) {
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	path, err := exec.LookPath("go")
	if err != nil {
		root := os.Getenv("GOROOT")
		if root == "" {
			return nil, errors.New("no go command on PATH, and GOROOT is not set")
		}
		path = filepath.Join(root, "bin", exe)
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no go command on PATH, and none in GOROOT: %v", err)
		}
	}
	cmd := exec.Command(path, "env", "GOROOT", "GOVERSION")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := firstLine(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, &exitError{msg: "go env GOROOT GOVERSION: " + msg, code: exitCode(err)}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] == "" || !strings.HasPrefix(lines[1], "go") {
		return nil, fmt.Errorf("go env GOROOT GOVERSION printed %q, want a GOROOT and a version", out)
	}
	return &goTool{path: path, dir: dir, tc: overlay.Toolchain{GOROOT: lines[0], GOVERSION: strings.TrimSpace(lines[1])}}, nil
}

// overlay returns the overlay for g's toolchain, generating it if the
// cache lacks it.
func (g *goTool) overlay() (*overlay.Overlay, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("cache directory: %v", err)
	}
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	return overlay.Generate(g.tc, stdiobuf.Source(), filepath.Join(cache, "stdiobuf"), filepath.Join(g.tc.GOROOT, "bin", exe))
}

// exitCode is the exit status of a failed command: its own, or 1 if it
// did not exit (it could not start, or a signal ended it).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() > 0 {
		return ee.ExitCode()
	}
	return 1
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
