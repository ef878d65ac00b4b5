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
	path string   // the go command: on PATH, or $GOROOT/bin/go
	dir  string   // where it runs: go's -C directory, or "" for the current one
	env  []string // added to the environment it runs in
	tc   overlay.Toolchain
}

// findGo finds the go command and asks it, run in dir, which toolchain
// it will compile with: go applies GOTOOLCHAIN and go.mod there first.
func findGo(dir string) (*goTool, error) {
	if dir != "" {
		if info, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("-C %s: %v", dir, errors.Unwrap(err))
		} else if !info.IsDir() {
			return nil, fmt.Errorf("-C %s: not a directory", dir)
		}
	}
	path, err := exec.LookPath("go")
	if err != nil {
		root := os.Getenv("GOROOT")
		if root == "" {
			return nil, errors.New("no go command on PATH, and GOROOT is not set")
		}
		path = filepath.Join(root, "bin", goExe())
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no go command on PATH, and none in GOROOT: %v", err)
		}
	}
	cmd := exec.Command(path, "env", "GOROOT", "GOVERSION", "GOMODCACHE", "GOOS", "GOARCH")
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
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 5 || lines[0] == "" || !strings.HasPrefix(lines[1], "go") || lines[3] == "" || lines[4] == "" {
		return nil, fmt.Errorf("go env GOROOT GOVERSION GOMODCACHE GOOS GOARCH printed %q, want a GOROOT, a version, a directory and a target", out)
	}
	g := &goTool{path: path, dir: dir, tc: overlay.Toolchain{GOROOT: lines[0], GOVERSION: lines[1], GOOS: lines[3], GOARCH: lines[4]}}
	if modcache := lines[2]; modcache != "" && within(g.tc.GOROOT, modcache) {
		if err := g.linkGOROOT(); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// linkGOROOT makes g run a toolchain that GOTOOLCHAIN downloaded into the
// module cache through a symbolic link outside it: the go command
// refuses an overlay of files beneath GOMODCACHE, but takes GOROOT as
// given. The link lives in the cache directory, one per GOROOT; g then
// runs that toolchain's go directly, with GOROOT set to the link and
// GOTOOLCHAIN=local, which is the choice go itself made.
func (g *goTool) linkGOROOT() error {
	cache, err := cacheDir()
	if err != nil {
		return err
	}
	link, err := overlay.LinkGOROOT(g.tc, cache)
	if err != nil {
		return err
	}
	g.tc.GOROOT = link
	g.path = filepath.Join(link, "bin", goExe())
	g.env = []string{"GOROOT=" + link, "GOTOOLCHAIN=local"}
	return nil
}

// within reports whether path is dir or beneath it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// cacheDir is where stdiobuf keeps its overlays and GOROOT links:
// os.UserCacheDir()/stdiobuf/overlays, a directory of their own, which
// removing clears (headbench keeps its input beside it).
func cacheDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache directory: %v", err)
	}
	return filepath.Join(cache, "stdiobuf", "overlays"), nil
}

func goExe() string {
	if runtime.GOOS == "windows" {
		return "go.exe"
	}
	return "go"
}

// overlay returns the overlay for g's toolchain, generating it if the
// cache lacks it.
func (g *goTool) overlay(opts overlay.Options) (*overlay.Overlay, error) {
	cache, err := cacheDir()
	if err != nil {
		return nil, err
	}
	return overlay.GenerateWith(g.tc, stdiobuf.Source(), cache, filepath.Join(g.tc.GOROOT, "bin", goExe()), opts)
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
