package overlay

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestStreamImportsOsOnlyWhereReplaced: under -stdout package os imports
// the generated bufio, so every file of stream that imports os must be one
// the generator replaces (stdoutReplaced); a new one would make an import
// cycle that only the -stdout build shows.
func TestStreamImportsOsOnlyWhereReplaced(t *testing.T) {
	names, err := filepath.Glob("../../stream/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if !isSource(filepath.Base(name)) {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, b, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "os" && !slices.Contains(stdoutReplaced, filepath.Base(name)) {
				t.Errorf("%s imports os: only %v may (the generated bufio is imported by os under -stdout)", name, stdoutReplaced)
			}
		}
	}
}

// TestCacheKeyFiles: -files makes another overlay than -stdout, which
// makes another than neither.
func TestCacheKeyFiles(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	env := strings.Fields(string(out))
	tc := Toolchain{GOROOT: env[0], GOVERSION: env[1], GOOS: "linux", GOARCH: "amd64"}
	files := map[string][]byte{"stream/a.go": []byte("package stream\n")}
	seen := make(map[string]Options)
	for _, opts := range []Options{{}, {Stdout: true}, {Stdout: true, Files: true}} {
		key, err := cacheKey(tc, files, opts)
		if err != nil {
			t.Fatal(err)
		}
		if o, dup := seen[key]; dup {
			t.Errorf("options %+v and %+v have the same cache key %s", o, opts, key)
		}
		seen[key] = opts
	}
}
