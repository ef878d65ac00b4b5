// Package winetest runs windows/amd64 programs on Linux under wine, so
// that stream's Windows seam is tested for real: the console, NUL, files
// and pipes as Windows reports them.
//
// Debian's wine64 (8.0) runs Go's windows/amd64 binaries once the prefix's
// system32 holds a bcryptprimitives.dll that exports ProcessPrng, which Go
// 1.24 and later call at start-up and wine 8 lacks. Setup builds one from
// prng/bcryptprimitives.c with x86_64-w64-mingw32-gcc (Debian's
// gcc-mingw-w64-x86-64) and makes a prefix that holds it, once: in
// $STDIOBUF_WINEPREFIX if set, else in the user's cache directory under a
// name made from wine's version and the DLL's source. Under a
// pseudo-terminal wine gives the program a console, on which
// GetConsoleMode succeeds.
//
// cmd wineexec (in this directory) is the wrapper for `go test -exec`.
package winetest

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// PrefixEnv names the variable that chooses the wine prefix.
const PrefixEnv = "STDIOBUF_WINEPREFIX"

//go:embed prng/bcryptprimitives.c prng/bcryptprimitives.def
var prngSource embed.FS

// dllName is the DLL wine lacks, as the Go runtime loads it.
const dllName = "bcryptprimitives.dll"

// readyFile marks a prefix whose set-up finished.
const readyFile = ".stdiobuf-ready"

// Wine is a wine prefix in which Go's windows/amd64 programs run.
type Wine struct {
	Prefix string // WINEPREFIX
	loader string // wine64
	server string // wineserver
}

// ForTest returns Setup's prefix. Where wine or the compiler for the DLL
// is missing, it skips t with the reason, or fails t under CI=true, where
// .ci/run has installed them.
func ForTest(t testing.TB) *Wine {
	t.Helper()
	w, err := Setup()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return w
}

// Setup finds wine and returns a prefix ready for Go programs, making it
// if it is not made yet.
func Setup() (*Wine, error) {
	w := &Wine{}
	var err error
	if w.loader, err = look("wine64", "apt-get install wine64"); err != nil {
		return nil, err
	}
	if w.server, err = look("wineserver", "apt-get install wine64"); err != nil {
		return nil, err
	}
	if w.Prefix, err = w.prefixDir(); err != nil {
		return nil, err
	}
	if ready(w.Prefix) {
		return w, nil
	}
	return w, w.makeAtomically()
}

// prefixDir is $STDIOBUF_WINEPREFIX, or a directory in the user's cache
// named for wine's version and the DLL's source.
func (w *Wine) prefixDir() (string, error) {
	if dir := os.Getenv(PrefixEnv); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("winetest: no cache directory for the wine prefix (set %s): %v", PrefixEnv, err)
	}
	key, err := w.key()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "stdiobuf", "wine-"+key), nil
}

// look finds a wine program on PATH or where Debian's wine64 package puts
// it without the wine package's wrappers.
func look(name, install string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := filepath.Join("/usr/lib/wine", name)
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("winetest: %s not found on PATH or in /usr/lib/wine (Debian: %s)", name, install)
}

// key names a cached prefix: wine's version and the DLL's source.
func (w *Wine) key() (string, error) {
	out, err := exec.Command(w.loader, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("winetest: %s --version: %v", w.loader, err)
	}
	h := sha256.New()
	h.Write(out)
	for _, name := range []string{"prng/bcryptprimitives.c", "prng/bcryptprimitives.def"} {
		b, _ := prngSource.ReadFile(name)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func ready(prefix string) bool {
	_, err := os.Stat(filepath.Join(prefix, readyFile))
	return err == nil
}

// makeAtomically makes the prefix under a temporary name beside it and
// renames it into place (over an empty directory too), so that a
// concurrent Setup (go test -exec runs packages in parallel) never sees
// half a prefix; of two that race, one rename wins and the other's prefix
// is removed.
func (w *Wine) makeAtomically() error {
	final := w.Prefix
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("winetest: %v", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), filepath.Base(final)+".tmp-")
	if err != nil {
		return fmt.Errorf("winetest: %v", err)
	}
	defer os.RemoveAll(tmp)
	w.Prefix = tmp
	if err := w.make(tmp); err != nil {
		return err
	}
	w.Prefix = final
	if err := os.Rename(tmp, final); err != nil && !ready(final) {
		return fmt.Errorf("winetest: %v (a directory that is not empty and has no %s is not a prefix this package made: remove it, or set %s to another)", err, readyFile, PrefixEnv)
	}
	return nil
}

// make builds the DLL, boots a prefix in dir and puts the DLL in its
// system32. wineserver is waited for, so the prefix can be moved.
func (w *Wine) make(dir string) error {
	dll, err := buildDLL()
	if err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(dll))
	if out, err := w.Command("wineboot", "-i").CombinedOutput(); err != nil {
		return fmt.Errorf("winetest: wineboot -i in %s: %v\n%s", dir, err, out)
	}
	sys32 := filepath.Join(dir, "drive_c", "windows", "system32")
	b, err := os.ReadFile(dll)
	if err != nil {
		return fmt.Errorf("winetest: %v", err)
	}
	if err := os.WriteFile(filepath.Join(sys32, dllName), b, 0o644); err != nil {
		return fmt.Errorf("winetest: installing %s: %v", dllName, err)
	}
	if out, err := w.serverCommand("-w").CombinedOutput(); err != nil {
		return fmt.Errorf("winetest: wineserver -w: %v\n%s", err, out)
	}
	return os.WriteFile(filepath.Join(dir, readyFile), nil, 0o644)
}

// buildDLL compiles bcryptprimitives.dll into a new temporary directory
// and returns its path.
func buildDLL() (string, error) {
	cc, err := look("x86_64-w64-mingw32-gcc", "apt-get install gcc-mingw-w64-x86-64")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "winetest-dll-")
	if err != nil {
		return "", fmt.Errorf("winetest: %v", err)
	}
	var srcs []string
	for _, name := range []string{"prng/bcryptprimitives.c", "prng/bcryptprimitives.def"} {
		b, _ := prngSource.ReadFile(name)
		p := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("winetest: %v", err)
		}
		srcs = append(srcs, p)
	}
	dll := filepath.Join(dir, dllName)
	args := append([]string{"-O2", "-shared", "-s", "-o", dll}, srcs...)
	args = append(args, "-ladvapi32")
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("winetest: building %s: %v\n%s", dllName, err, out)
	}
	return dll, nil
}

// Command returns the command that runs the Windows program exe (a path
// on this system, or a program of the prefix such as wineboot) under wine.
func (w *Wine) Command(exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(w.loader, append([]string{exe}, args...)...)
	cmd.Env = w.Env(os.Environ())
	return cmd
}

func (w *Wine) serverCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(w.server, args...)
	cmd.Env = w.Env(os.Environ())
	return cmd
}

// Env returns env for a wine process of this prefix: WINEPREFIX set, no
// display (wine runs console programs without one), WINEDEBUG=-all unless
// env sets it, and no Mono or Gecko installer at set-up.
func (w *Wine) Env(env []string) []string {
	out := make([]string, 0, len(env)+3)
	debug := "WINEDEBUG=-all"
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "WINEPREFIX", "DISPLAY", "WAYLAND_DISPLAY", "WINEDLLOVERRIDES":
			continue
		case "WINEDEBUG":
			debug = kv
			continue
		}
		out = append(out, kv)
	}
	return append(out, "WINEPREFIX="+w.Prefix, debug, "WINEDLLOVERRIDES=mscoree,mshtml=")
}

// ExitCode returns the status a wine process ended with, or -1 with err
// when it did not run or was killed.
func ExitCode(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		return ee.ExitCode(), nil
	}
	return -1, err
}
