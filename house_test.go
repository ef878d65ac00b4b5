package stdiobuf

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// commentRules are what a code comment must not hold: it says what the
// code does and why, and the history of how it came to be (when, in which
// commit, after whose reading) goes to commit messages and bench/results.
var commentRules = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a date", regexp.MustCompile(`\b(19|20)\d\d-[01]\d-[0-3]\d\b`)},
	{"a UTC time", regexp.MustCompile(`\b\d\d?:\d\d(:\d\d)? ?UTC\b`)},
	// A commit hash: a hex word with both a digit and a letter, so that
	// numbers (1048576) and words (deadbeef, facade) pass.
	{"a commit hash", regexp.MustCompile(`\b[0-9a-f]*(\d[0-9a-f]*[a-f]|[a-f][0-9a-f]*\d)[0-9a-f]*\b`)},
	{"a word of history", regexp.MustCompile(`(?i)\breview|\bheld-out\b|\btryout`)},
}

// commentFlaw returns what in the comment line text breaks a rule of
// commentRules ("a date: " and the date), or "" if nothing does.
func commentFlaw(text string) string {
	for _, r := range commentRules {
		for _, m := range r.re.FindAllString(text, -1) {
			if r.what == "a commit hash" && (len(m) < 7 || len(m) > 40) {
				continue
			}
			return r.what + ": " + m
		}
	}
	return ""
}

func TestCommentFlaw(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"// Plain prose about buffers.", ""},
		{"// Measured on 2026-12-01 on 2 cores.", "a date: 2026-12-01"},
		{"// bench/results/2026-11-30-stdout.md holds it.", "a date: 2026-11-30"},
		{"// The run at 03:40 UTC.", "a UTC time: 03:40 UTC"},
		{"// Fixed in efaad9f.", "a commit hash: efaad9f"},
		{"// Merged at 0de3687c1b2a4e5f6a7b8c9d0e1f2a3b4c5d6e7f.", "a commit hash: 0de3687c1b2a4e5f6a7b8c9d0e1f2a3b4c5d6e7f"},
		{"// As found by a review.", "a word of history: review"},
		{"// Reviewed twice.", "a word of history: Review"},
		{"// On the held-out set.", "a word of history: held-out"},
		{"// A tryout showed it.", "a word of history: tryout"},
		{"// 1048576 bytes, 1 MiB, 0x1000.", ""},
		{"// deadbeef and facade are words.", ""},
		{"// abc123 is too short for a hash.", ""},
		{"// A preview is not history.", ""},
		{"// 12:30 is a time of day without a zone.", ""},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, commentFlaw(tt.text)); diff != "" {
			t.Errorf("commentFlaw(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

// TestComments parses every Go file of the module but generated ones and
// those under testdata, and fails on each comment line commentFlaw finds
// fault with, naming its file and line.
func TestComments(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || isModule(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line := fset.Position(c.Slash).Line
				for i, text := range strings.Split(c.Text, "\n") {
					if flaw := commentFlaw(text); flaw != "" {
						t.Errorf("%s:%d: comment holds %s", path, line+i, flaw)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// isModule reports whether dir holds a module of its own.
func isModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}
