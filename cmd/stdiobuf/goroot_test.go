package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shadowGOROOT returns a GOROOT that is goroot but for a copy of package
// os's directory: links to everything else.
func shadowGOROOT(t *testing.T, goroot string) string {
	t.Helper()
	shadow := filepath.Join(t.TempDir(), "goroot")
	link := func(from, to string, skip string) {
		entries, err := os.ReadDir(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != skip {
				if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	link(goroot, shadow, "src")
	link(filepath.Join(goroot, "src"), filepath.Join(shadow, "src"), "os")
	link(filepath.Join(goroot, "src", "os"), filepath.Join(shadow, "src", "os"), "file.go")
	b, err := os.ReadFile(filepath.Join(goroot, "src", "os", "file.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shadow, "src", "os", "file.go"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return shadow
}

// TestPatchedGOROOT: a GOROOT whose os is patched after an overlay was
// made for it, keeping its version, as a distribution's backport does, is
// seen by every build: plain, stdiobuf build and stdiobuf build -stdout
// (whose overlay holds a copy of os's file.go, and must not be the cached
// copy of the file before the patch).
func TestPatchedGOROOT(t *testing.T) {
	testOverlay(t) // skips under -short
	if os.Getenv("GOROOT_FINAL") != "" {
		t.Skip("GOROOT_FINAL set")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := shadowGOROOT(t, strings.TrimSpace(string(out)))
	dir := t.TempDir()
	prog := "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(os.Stdout.Name() + \"\\n\") }\n"
	for name, b := range map[string]string{"main.go": prog, "go.mod": "module example.com/name\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(testCacheEnv(), "GOROOT="+goroot, "GOTOOLCHAIN=local", "GOFLAGS=")
	name := func(t *testing.T, build ...string) string {
		t.Helper()
		bin := filepath.Join(dir, "name")
		var cmd *exec.Cmd
		if build[0] == "go" {
			cmd = exec.Command(filepath.Join(goroot, "bin", "go"), "build", "-o", bin, ".")
		} else {
			cmd = exec.Command(stdiobufBin, append(build, "-o", bin, ".")...)
		}
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q: %v\n%s", build, err, out)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	builds := [][]string{{"go"}, {"build"}, {"build", "-stdout"}}
	for _, b := range builds {
		if got := name(t, b...); got != "/dev/stdout" {
			t.Fatalf("%q before the patch: name %q, want /dev/stdout", b, got)
		}
	}
	file := filepath.Join(goroot, "src", "os", "file.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	patched := bytes.Replace(src, []byte("func (f *File) Name() string { return f.name }"), []byte("func (f *File) Name() string { return \"patched:\" + f.name }"), 1)
	if bytes.Equal(patched, src) {
		t.Fatal("os/file.go has no Name method to patch")
	}
	if err := os.WriteFile(file, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, b := range builds {
		if got := name(t, b...); got != "patched:/dev/stdout" {
			t.Errorf("%q after the patch: name %q, want patched:/dev/stdout", b, got)
		}
	}
}
