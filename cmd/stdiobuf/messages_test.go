package main

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPanicSpeaksAsBufio: a program's panic in bufio's code names bufio,
// under stdiobuf as under go.
func TestPanicSpeaksAsBufio(t *testing.T) {
	testOverlay(t) // skips under -short
	const want = "panic: bufio.Scan: too many empty tokens without progressing"
	_, stderr, code := runStdiobuf(t, ".", testCacheEnv(), "run", "./testdata/emptytokens")
	if first, _, _ := strings.Cut(stderr, "\n"); code == 0 || first != want {
		t.Errorf("stdiobuf run ./testdata/emptytokens: status %d, stderr:\n%s\nwant first line %q", code, stderr, want)
	}
}

// packageDoc returns the package comment go/doc makes of the Go files
// (not tests) of package bufio in dir, with the overlay's replacements.
func packageDoc(t *testing.T, dir string, replace map[string]string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range replace {
		if filepath.Dir(name) == dir && !slices.Contains(names, name) {
			names = append(names, name) // a file the overlay adds
		}
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if to, ok := replace[name]; ok {
			if to == "" {
				continue
			}
			name = to
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "bufio")
	if err != nil {
		t.Fatal(err)
	}
	return p.Doc
}

// TestDocIsBufios: the generated bufio's package comment is the
// toolchain's bufio's, not stream's.
func TestDocIsBufios(t *testing.T) {
	ov := testOverlay(t)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(goroot)), "src", "bufio")
	var o overlayFile
	if err := readJSON(ov, &o); err != nil {
		t.Fatal(err)
	}
	want := packageDoc(t, dir, nil)
	if !strings.HasPrefix(want, "Package bufio ") {
		t.Fatalf("the toolchain's bufio has package comment %q", want)
	}
	if diff := cmp.Diff(want, packageDoc(t, dir, o.Replace)); diff != "" {
		t.Errorf("package comment under the overlay -bufio's +generated:\n%s", diff)
	}
}
