package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkSource is a program with one per-record write, one unflushed
// writer and nothing else to report.
const checkSource = `package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	for _, a := range os.Args {
		fmt.Println(a)
	}
	w := bufio.NewWriter(os.Stderr)
	fmt.Fprintln(w, len(os.Args))
	if len(os.Args) > 3 {
		os.Exit(1)
	}
	w.Flush()
}
`

// TestCheck runs stdiobuf check on a module and compares what it reports
// and its exit status with go vet's conventions: 1 with diagnostics, 0
// with none, go vet's status and message for a bad package.
func TestCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet, which compiles; -short skips it")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/prog\n\ngo 1.25\n",
		"main.go":        checkSource,
		"clean/clean.go": "package clean\n\nimport \"fmt\"\n\nfunc Hello() { fmt.Println(\"hello\") }\n",
		"broken/bad.go":  "package broken\n\nfunc f() { undefined() }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	findings := []string{
		"main.go:11:3: fmt.Println in a loop writes to os.Stdout unbuffered: one system call per record; wrap it in a bufio.Writer flushed after the loop (suggested fix), or build with stdiobuf build -stdout",
		"main.go:16:3: w, a bufio.Writer written to after line 13, reaches os.Exit without Flush (deferred calls do not run): what it holds is lost; call w.Flush() before os.Exit",
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // the diagnostics, in order
		wantErr  string   // standard error holds it
		// elsewhere runs it from a directory outside the module.
		elsewhere bool
	}{
		{"findings", []string{"check", "."}, 1, findings, "", false},
		{"nothing to report", []string{"check", "./clean"}, 0, nil, "", false},
		{"a package that does not compile", []string{"check", "./broken"}, 1, nil, "undefined: undefined", false},
		{"no such package", []string{"check", "./nowhere"}, 1, nil, "nowhere", false},
		// From another directory, with go's -C where go takes it.
		{"-C after check", []string{"check", "-C", dir, "."}, 1, findings, "", true},
		{"-C= after check", []string{"check", "-C=" + dir, "./clean"}, 0, nil, "", true},
		{"-C before check", []string{"-C", dir, "check", "."}, 1, findings, "", true},
		{"-C without a directory", []string{"check", "-C"}, 2, nil, "flag needs an argument: -C", true},
		{"-C not first", []string{"check", "./clean", "-C", dir}, 1, nil, "-C", false},
	}
	elsewhere := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd := dir
			if tt.elsewhere {
				wd = elsewhere
			}
			stdout, stderr, code := runStdiobuf(t, wd, nil, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			var got []string
			for _, line := range strings.Split(stdout+stderr, "\n") {
				if strings.HasPrefix(line, "main.go:") {
					got = append(got, line)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nstderr:\n%s", diff, stderr)
			}
			if !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("stderr:\n%s\nwant it to hold %q", stderr, tt.wantErr)
			}
		})
	}
}

func TestCheckHelp(t *testing.T) {
	stdout, _, code := runStdiobuf(t, t.TempDir(), nil, "check", "-h")
	if code != 0 || !strings.Contains(stdout, "check [go vet flags] [packages]") || strings.Contains(stdout, "overlay\n    Print") {
		t.Errorf("stdiobuf check -h: status %d, stdout:\n%s\nwant check's help alone", code, stdout)
	}
}
