package overlay

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
