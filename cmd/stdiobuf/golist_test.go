package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// overlaidPackages returns the import paths of the standard-library
// packages whose files the overlay file ov replaces.
func overlaidPackages(t *testing.T, ov string) []string {
	t.Helper()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	var o overlayFile
	if err := readJSON(ov, &o); err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for file := range o.Replace {
		rel, err := filepath.Rel(src, filepath.Dir(file))
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("overlay replaces %s, outside %s", file, src)
		}
		if p := filepath.ToSlash(rel); !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	slices.Sort(pkgs)
	return pkgs
}

// TestListedFilesExist: every file `go list` names for a package the
// overlay changes, its tests included, exists on disk, plainly and under
// -stdout, so that a tool that reads the files go list names (go/packages,
// gopls, staticcheck) works with the overlay in GOFLAGS.
func TestListedFilesExist(t *testing.T) {
	for _, args := range [][]string{nil, {"-stdout"}} {
		t.Run(strings.Join(append([]string{"overlay"}, args...), " "), func(t *testing.T) {
			ov := testOverlay(t, args...)
			pkgs := overlaidPackages(t, ov)
			want := []string{"bufio"}
			if len(args) > 0 {
				want = append(want, "os")
			}
			for _, p := range want {
				if !slices.Contains(pkgs, p) {
					t.Errorf("the overlay changes %v, not %s", pkgs, p)
				}
			}
			cmd := exec.Command("go", append([]string{"list", "-e", "-json", "-compiled", "-test", "-overlay=" + ov}, pkgs...)...)
			cmd.Dir = t.TempDir() // no go.mod to pick another toolchain
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			dec := json.NewDecoder(strings.NewReader(string(out)))
			listed := 0
			for {
				var p struct {
					ImportPath, Dir string
					GoFiles, CgoFiles, CompiledGoFiles, IgnoredGoFiles, IgnoredOtherFiles,
					TestGoFiles, XTestGoFiles, EmbedFiles []string
				}
				if err := dec.Decode(&p); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				for _, list := range [][]string{p.GoFiles, p.CgoFiles, p.CompiledGoFiles, p.IgnoredGoFiles, p.IgnoredOtherFiles, p.TestGoFiles, p.XTestGoFiles, p.EmbedFiles} {
					for _, name := range list {
						listed++
						if !filepath.IsAbs(name) {
							name = filepath.Join(p.Dir, name)
						}
						if _, err := os.Stat(name); err != nil {
							t.Errorf("go list names %s for %s: %v", name, p.ImportPath, err)
						}
					}
				}
			}
			if listed == 0 {
				t.Errorf("go list named no file for %v", pkgs)
			}
		})
	}
}

// TestGoPackagesLoad loads, with golang.org/x/tools/go/packages and the
// overlay in GOFLAGS, packages that import bufio (and os), from source with
// every dependency, as go/analysis tests and gopls do: no error, plainly
// or under -stdout. It fetches x/tools through the module proxy.
func TestGoPackagesLoad(t *testing.T) {
	const tools = "golang.org/x/tools/go/packages@v0.52.0"
	plain := testOverlay(t) // skips under -short
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "goload", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	minor := strings.Join(strings.Split(strings.TrimPrefix(strings.TrimSpace(string(goVersion)), "go"), ".")[:2], ".")
	for name, b := range map[string][]byte{
		"main.go": src,
		"go.mod":  []byte("module example.com/goload\n\ngo " + minor + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	get := exec.Command("go", "get", tools)
	get.Dir, get.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := get.CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("go get %s: %v\n%s", tools, err, out)
		}
		t.Skipf("go get %s (the module proxy): %v\n%s", tools, err, out)
	}
	build := exec.Command("go", "build", "-o", "goload", ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build goload: %v\n%s", err, out)
	}
	for _, ov := range []string{plain, testOverlay(t, "-stdout")} {
		cmd := exec.Command(filepath.Join(dir, "goload"), "bufio", "os", "net/textproto", "mime")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-overlay="+ov)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go/packages with GOFLAGS=-overlay=%s: %v\n%s", ov, err, out)
			continue
		}
		t.Logf("%s: %s", ov, out)
	}
}
