package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWindowsReport checks the report's line of a Writer over each kind of
// handle: NUL by any of its names is kind null with path NUL, as Linux's
// /dev/null; a file opened by a relative name has its full path; a pipe
// keeps its Name; the console is a line-buffered terminal. Under wine the
// console case runs only on a pseudo-terminal (.ci/wine-tests runs
// TestWindows* on one).
func TestWindowsReport(t *testing.T) {
	const line = "line\n"
	open := func(t *testing.T, name string, flag int) *os.File {
		t.Helper()
		f, err := os.OpenFile(name, flag, 0o666)
		if err != nil {
			t.Skipf("opening %s: %v", name, err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	// Each case writes line three times through w and flushes it; a bufio
	// stream of the program saves nothing over the plain build, which has
	// the same buffer.
	fullyBuffered := map[string]string{"mode": "full", "calls": "3", "writes": "1", "held": "0", "saved": "0"}
	with := func(fields map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range []map[string]string{fullyBuffered, fields} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	tests := []struct {
		name string
		// file opens the handle and returns it with its line's fields.
		file func(t *testing.T) (*os.File, map[string]string)
	}{
		{"NUL", func(t *testing.T) (*os.File, map[string]string) {
			return open(t, "NUL", os.O_WRONLY), with(map[string]string{"kind": "null", "path": "NUL"})
		}},
		{"nul, lower case", func(t *testing.T) (*os.File, map[string]string) {
			return open(t, "nul", os.O_WRONLY), with(map[string]string{"kind": "null", "path": "NUL"})
		}},
		{`\\.\NUL`, func(t *testing.T) (*os.File, map[string]string) {
			return open(t, `\\.\NUL`, os.O_WRONLY), with(map[string]string{"kind": "null", "path": "NUL"})
		}},
		{"file opened by a relative name", func(t *testing.T) (*os.File, map[string]string) {
			dir := tempDir(t)
			t.Chdir(dir)
			f := open(t, "out", os.O_WRONLY|os.O_CREATE)
			return f, with(map[string]string{"kind": "file", "path": filepath.Join(dir, "out")})
		}},
		{"pipe", func(t *testing.T) (*os.File, map[string]string) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { w.Close(); r.Close() }) // the 15 bytes fit in the pipe
			return w, with(map[string]string{"kind": "pipe", "path": w.Name()})
		}},
		{"console (CONOUT$)", func(t *testing.T) (*os.File, map[string]string) {
			f := open(t, "CONOUT$", os.O_RDWR)
			if !isTerminal(f.Fd()) {
				t.Skip("CONOUT$ is no console here: GetConsoleMode fails")
			}
			// Line buffered: a write a line.
			return f, map[string]string{"kind": "terminal", "path": "CONOUT$", "mode": "line",
				"calls": "3", "writes": "3", "held": "0", "saved": "0"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withReport(t)
			f, want := tt.file(t)
			w := NewWriter(f)
			for range 3 {
				w.WriteString(line)
			}
			w.Flush()
			line := checkStreamLine(t, reportText(), want)
			if want["kind"] == "terminal" && !strings.HasPrefix(line["reason"], "terminal: ") {
				t.Errorf("reason %q, want the terminal rule's", line["reason"])
			}
		})
	}
}

// TestWindowsReportDirectory checks the line of a Reader over a
// directory opened by a relative name: kind directory, its full path.
func TestWindowsReportDirectory(t *testing.T) {
	withReport(t)
	dir := tempDir(t)
	t.Chdir(filepath.Dir(dir))
	f, err := os.Open(filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.ReadByte() // fails: what counts is the decision
	checkStreamLine(t, reportText(), map[string]string{"kind": "directory", "path": dir, "dir": "read"})
}

// TestWindowsDOSPath checks the form of the final paths the report gives.
func TestWindowsDOSPath(t *testing.T) {
	tests := []struct{ final, want string }{
		{`\\?\C:\Users\me\out.txt`, `C:\Users\me\out.txt`},
		{`\\?\UNC\server\share\out.txt`, `\\server\share\out.txt`},
		{`C:\out.txt`, `C:\out.txt`},
	}
	for _, tt := range tests {
		if got := dosPath(tt.final); got != tt.want {
			t.Errorf("dosPath(%q) = %q, want %q", tt.final, got, tt.want)
		}
	}
}
