//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/runcmd"
)

// modulePath is the module whose commands headbench builds.
const modulePath = "github.com/stdiobuf/stdiobuf"

// tools are the programs a run needs; an empty path means missing, and
// missing says why for each.
type tools struct {
	getdelim string // cmd/getdelim
	// getdelimFrom says where getdelim comes from, for the reports.
	getdelimFrom string
	cloop        string // bench/c/getdelim_loop.c built with cc -O2
	bufioloop    string // bench/bufioloop
	head         string // GNU head
	cat          string
	strace       string
	missing      map[string]string
}

// findTools builds getdelim (unless prebuilt is set) and the peers into dir
// and looks up the system tools. It never fails: what it cannot find or
// build is left out, with the reason in missing.
func findTools(ctx context.Context, dir, prebuilt string) *tools {
	t := &tools{missing: map[string]string{}}
	root, rootErr := moduleRoot(ctx)
	build := func(name, pkg string) string {
		if rootErr != nil {
			t.missing[name] = rootErr.Error()
			return ""
		}
		out := filepath.Join(dir, name)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", out, modulePath+"/"+pkg)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.missing[name] = fmt.Sprintf("go build ./%s: %v: %s", pkg, err, clip(strings.TrimSpace(string(b)), 600))
			return ""
		}
		return out
	}
	if prebuilt != "" {
		if err := checkExecutable(prebuilt); err != nil {
			t.missing["getdelim"] = err.Error()
		} else {
			t.getdelim, _ = filepath.Abs(prebuilt)
			t.getdelimFrom = t.getdelim + " (--getdelim)"
		}
	} else if t.getdelim = build("getdelim", "cmd/getdelim"); t.getdelim != "" {
		t.getdelimFrom = "built from " + root
		if rev := firstLine(ctx, "git", "-C", root, "describe", "--always", "--dirty"); rev != "" {
			t.getdelimFrom += " at " + rev
		}
	}
	t.bufioloop = build("bufioloop", "bench/bufioloop")
	if rootErr != nil {
		t.missing["cloop"] = rootErr.Error()
	} else {
		t.cloop = buildC(ctx, filepath.Join(root, "bench", "c", "getdelim_loop.c"), filepath.Join(dir, "getdelim_loop"), t.missing)
	}
	if p, err := exec.LookPath("head"); err != nil {
		t.missing["head"] = "head not found on PATH"
	} else if v := firstLine(ctx, p, "--version"); !strings.Contains(v, "GNU coreutils") {
		t.missing["head"] = fmt.Sprintf("%s is not GNU head (--version says %q)", p, v)
	} else {
		t.head = p
	}
	if p, err := exec.LookPath("cat"); err != nil {
		t.missing["cat"] = "cat not found on PATH"
	} else {
		t.cat = p
	}
	if p, err := exec.LookPath("strace"); err != nil {
		t.missing["strace"] = "strace not found on PATH"
	} else if err := runcmd.Run(ctx, p, straceCommand(p, os.DevNull, "true")[1:]...); err != nil {
		// Containers often forbid ptrace.
		t.missing["strace"] = err.Error()
	} else {
		t.strace = p
	}
	return t
}

// moduleRoot returns the folder of the stdiobuf module that the go command
// sees from the current folder.
func moduleRoot(ctx context.Context) (string, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return "", fmt.Errorf("the go command is not on PATH: cannot build from source")
	}
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", modulePath).Output()
	if err != nil {
		return "", fmt.Errorf("not inside the %s module (go list -m: %v): run headbench from its checkout", modulePath, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildC compiles the C peer with $CC (default cc) -O2.
func buildC(ctx context.Context, src, out string, missing map[string]string) string {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		missing["cloop"] = fmt.Sprintf("no C compiler: %s not found on PATH", cc)
		return ""
	}
	if err := runcmd.Run(ctx, cc, "-O2", "-o", out, src); err != nil {
		missing["cloop"] = err.Error()
		return ""
	}
	return out
}

func checkExecutable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}
