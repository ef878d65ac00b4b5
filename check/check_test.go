package check_test

import (
	"testing"

	"github.com/stdiobuf/stdiobuf/check"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer runs the analyzer over testdata/src: each package's
// "// want" comments are the diagnostics it must report, and nothing else
// may be reported; a .golden file beside a Go file is that file with
// every suggested fix applied.
func TestAnalyzer(t *testing.T) {
	tests := []struct {
		pkg   string
		fixes bool // the package has .golden files
	}{
		{"writes", true},
		{"reads", false},
		{"flush", true},
		{"scanner", false},
		{"logout", false},
		{"silent", false},
		{"streamuse", false},
		{"stderrs", false},
		{"ipmain", false}, // and iplib, for its facts
		{"jbuf", false},
		{"enclib", false},
		{"encmain", false},
		{"dispatch", false},
		{"deadflag", false},
		{"events", false},
		{"child", false},
		{"exits", false},
		{"example.com/scanmain", false}, // and scanlib, colorlib for their facts
		{"example.com/rendlib", false},
		{"example.com/rendmain", false},
		{"example.com/parsemain", false}, // and parselib, jsonw, senw for their facts
	}
	dir := analysistest.TestData()
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			if tt.fixes {
				analysistest.RunWithSuggestedFixes(t, dir, check.Analyzer, tt.pkg)
			} else {
				analysistest.Run(t, dir, check.Analyzer, tt.pkg)
			}
		})
	}
}
