package stream

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// withReport turns the report on for the test, with an empty registry,
// and restores both after it.
func withReport(t *testing.T) {
	t.Helper()
	on := reportOn
	reportOn = true
	reported.mu.Lock()
	saved, index := reported.entries, reported.index
	reported.entries, reported.index = nil, nil
	reported.mu.Unlock()
	t.Cleanup(func() {
		reportOn = on
		reported.mu.Lock()
		reported.entries, reported.index = saved, index
		reported.mu.Unlock()
	})
}

// reportFields splits the report into its lines' key=value fields, the
// total last; quoted values are unquoted.
func reportFields(t *testing.T, text []byte) []map[string]string {
	t.Helper()
	var lines []map[string]string
	for _, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, reportPrefix)
		if !ok {
			t.Fatalf("report line %q does not start with %q", line, reportPrefix)
		}
		fields := map[string]string{}
		for rest != "" {
			word, after, _ := strings.Cut(rest, " ")
			key, value, ok := strings.Cut(word, "=")
			if !ok {
				fields[word] = ""
				rest = after
				continue
			}
			if strings.HasPrefix(value, `"`) {
				q, err := strconv.QuotedPrefix(rest[len(key)+1:])
				if err != nil {
					t.Fatalf("field %s of %q: %v", key, line, err)
				}
				value, _ = strconv.Unquote(q)
				after = strings.TrimPrefix(rest[len(key)+1+len(q):], " ")
			}
			fields[key] = value
			rest = after
		}
		lines = append(lines, fields)
	}
	return lines
}

// only keeps the fields of m named in keys.
func only(m map[string]string, keys ...string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

func TestReportLines(t *testing.T) {
	const record = "0123456789\n"
	n := func(v int) string { return strconv.Itoa(v) }
	cases := []struct {
		name string
		// run makes one stream over something in dir, uses it and
		// returns the fields its line must have.
		run func(t *testing.T, dir string) map[string]string
	}{
		{"full writer over a file", func(t *testing.T, dir string) map[string]string {
			f := create(t, dir)
			const size, records = 8192, 1000
			w := NewWriterPolicy(f, Policy(size))
			for range records {
				w.WriteString(record)
			}
			w.Flush()
			total := records * len(record)
			writes := (total + size - 1) / size
			return map[string]string{"fd": n(int(f.Fd())), "kind": "file", "path": f.Name(), "dir": "write",
				"mode": "full", "size": n(size), "policy": "8192", "reason": "fixed size",
				"calls": n(records), "writes": n(writes), "kernel": "0", "bytes": n(total), "held": "0", "saved": "0"}
		}},
		{"line writer over a file", func(t *testing.T, dir string) map[string]string {
			f := create(t, dir)
			w := NewWriter(f)
			w.Setvbuf(LineBuffered, 0)
			for range 10 {
				w.Write([]byte("a"))
				w.WriteString("b\n")
			}
			return map[string]string{"kind": "file", "mode": "line", "reason": "Setvbuf",
				"calls": "20", "writes": "10", "bytes": "30", "held": "0", "saved": "0"}
		}},
		{"unbuffered writer over a file", func(t *testing.T, dir string) map[string]string {
			f := create(t, dir)
			w := NewWriter(f)
			w.Setvbuf(Unbuffered, 0)
			for range 5 {
				w.WriteByte('x')
				w.WriteRune('é')
			}
			return map[string]string{"mode": "none", "calls": "10", "writes": "10", "bytes": "15", "held": "0", "saved": "0"}
		}},
		{"writer not flushed", func(t *testing.T, dir string) map[string]string {
			f := create(t, dir)
			w := NewWriterPolicy(f, PolicyBufio)
			fmtLines(w, 3)
			return map[string]string{"mode": "full", "size": n(bufioSize), "policy": "bufio", "reason": "bufio's 4096",
				"calls": "3", "writes": "0", "bytes": "0", "held": n(3 * len(record)), "saved": "0"}
		}},
		{"writer over /dev/null", func(t *testing.T, dir string) map[string]string {
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { f.Close() })
			w := NewWriter(f)
			w.ReadFrom(strings.NewReader(strings.Repeat(record, 10)))
			w.Flush()
			// ReadFrom hands the copy to the file's own ReadFrom: one call
			// of the program, one write counted, none saved.
			return map[string]string{"kind": "null", "path": os.DevNull, "dir": "write",
				"calls": "1", "writes": "1", "bytes": n(10 * len(record)), "held": "0", "saved": "0"}
		}},
		{"ReadFrom into a writer over a descriptor without ReadFrom", func(t *testing.T, dir string) map[string]string {
			f := create(t, dir)
			w := NewWriterPolicy(writeFd{f}, Policy(64))
			w.ReadFrom(strings.NewReader(strings.Repeat(record, 10)))
			w.Flush()
			// Two chunks read (64 bytes, then 46), each a call; the read
			// that finds the end is none.
			return map[string]string{"kind": "file", "dir": "write", "size": "64",
				"calls": "2", "writes": "2", "bytes": n(10 * len(record)), "held": "0", "saved": "0"}
		}},
		{"ReadFrom of a file into a writer over a file", func(t *testing.T, dir string) map[string]string {
			if runtime.GOOS != "linux" {
				t.Skip("ReadFrom copies a file in the kernel on Linux only")
			}
			src := filepath.Join(dir, "src")
			if err := os.WriteFile(src, bytes.Repeat([]byte("z"), 100000), 0o666); err != nil {
				t.Fatal(err)
			}
			in, err := os.Open(src)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { in.Close() })
			w := NewWriterPolicy(create(t, dir), Policy(4096))
			w.ReadFrom(in)
			w.Flush()
			// Each kernel copy is a call the plain build makes too: the
			// program's calls are as many, and none is saved.
			return map[string]string{"kind": "file", "dir": "write", "writes": "0", "held": "0", "saved": "0"}
		}},
		{"reader over a file", func(t *testing.T, dir string) map[string]string {
			const size, length = 4096, 20000
			name := filepath.Join(dir, "in")
			if err := os.WriteFile(name, bytes.Repeat([]byte("y"), length), 0o666); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			r := NewReaderPolicy(f, Policy(size))
			for {
				if _, err := r.ReadByte(); err != nil {
					break
				}
			}
			reads := (length+size-1)/size + 1 // the last read returns io.EOF
			return map[string]string{"fd": n(int(f.Fd())), "kind": "file", "path": name, "dir": "read", "mode": "full",
				"size": n(size), "reads": n(reads), "kernel": "0", "bytes": n(length)}
		}},
		{"reader set unbuffered before its first read", func(t *testing.T, dir string) map[string]string {
			name := filepath.Join(dir, "in")
			if err := os.WriteFile(name, []byte("abc"), 0o666); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			r := NewReader(f)
			r.Setvbuf(Unbuffered, 0)
			for {
				if _, err := r.ReadByte(); err != nil {
					break
				}
			}
			return map[string]string{"path": name, "dir": "read", "mode": "none", "reason": "Setvbuf", "reads": "4", "bytes": "3"}
		}},
		{"scanner over a pipe", func(t *testing.T, dir string) map[string]string {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { pr.Close() })
			go func() {
				pw.WriteString(strings.Repeat(record, 100))
				pw.Close()
			}()
			s := NewScanner(pr)
			lines := 0
			for s.Scan() {
				lines++
			}
			if lines != 100 {
				t.Fatalf("scanned %d lines, want 100", lines)
			}
			i := s.Info()
			return map[string]string{"kind": "pipe", "dir": "read", "reads": n(int(i.Reads)), "bytes": n(100 * len(record))}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withReport(t)
			want := c.run(t, tempDir(t))
			// Streams that are not over a descriptor are not listed.
			bw := NewWriter(&bytes.Buffer{})
			bw.WriteString(record)
			bw.Flush()
			line := checkStreamLine(t, reportText(), want)
			if strings.HasPrefix(line["path"], "pipe:") != (line["kind"] == "pipe") && fdPath(0) != "" {
				t.Errorf("path %q and kind %q disagree", line["path"], line["kind"])
			}
		})
	}
}

// checkStreamLine checks that report, the text of a report, has one
// stream's line and the total, and that the stream's line has the fields
// of want (and others); it returns the line's fields.
func checkStreamLine(t *testing.T, report []byte, want map[string]string) map[string]string {
	t.Helper()
	lines := reportFields(t, report)
	if len(lines) != 2 {
		t.Fatalf("report has %d lines, want a stream's and the total:\n%s", len(lines), report)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	if diff := cmp.Diff(want, only(lines[0], keys...)); diff != "" {
		t.Errorf("stream line (-want +got):\n%s\n%s", diff, report)
	}
	return lines[0]
}

// tempDir is t.TempDir for a test that makes only files in it, with
// symbolic links and Windows' short names resolved, as the report's paths
// are. Under wine 8 t.TempDir's clean-up fails ("Invalid function":
// os.RemoveAll asks for FileDispositionInformationEx, which wine lacks,
// and takes wine's error for a failure), where os.Remove of each file and
// the directory works: this clean-up removes them so, and fails the test
// if the directory stays.
func tempDir(t *testing.T) string {
	t.Helper()
	pattern := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return r
		}
		return '_'
	}, t.Name())
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			os.Remove(filepath.Join(dir, e.Name()))
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("removing the temporary directory: %v", err)
		}
	})
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	return dir
}

// writeFd is a descriptor that has only Write and Fd: a Writer over it
// reads a ReadFrom's input into its buffer, as it has no ReadFrom to hand
// the copy to.
type writeFd struct{ f *os.File }

func (w writeFd) Write(p []byte) (int, error) { return w.f.Write(p) }
func (w writeFd) Fd() uintptr                 { return w.f.Fd() }

// create creates a file in dir, closed after the test.
func create(t *testing.T, dir string) *os.File {
	t.Helper()
	f, err := os.CreateTemp(dir, "out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// fmtLines writes k records to w, as fmt.Fprintln would: one Write each.
func fmtLines(w io.Writer, k int) {
	for range k {
		w.Write([]byte("0123456789\n"))
	}
}

func TestReportTotal(t *testing.T) {
	withReport(t)
	dir := tempDir(t)
	var calls, writes int
	for i := range 3 {
		w := NewWriterPolicy(create(t, dir), Policy(64))
		fmtLines(w, 10*(i+1))
		w.Flush()
		calls += 10 * (i + 1)
		writes += int(w.Info().Writes)
	}
	r := NewReader(create(t, dir))
	r.ReadByte()
	reads := int(r.Info().Reads)
	lines := reportFields(t, reportText())
	if len(lines) != 5 {
		t.Fatalf("report has %d lines, want 5:\n%s", len(lines), reportText())
	}
	want := map[string]string{"total": "", "streams": "4", "writers": "3", "calls": strconv.Itoa(calls),
		"writes": strconv.Itoa(writes), "saved": "0", "readers": "1",
		"reads": strconv.Itoa(reads), "kernel": "0"}
	if diff := cmp.Diff(want, lines[4]); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}

// TestReportOff checks that with the report off no stream registers.
func TestReportOff(t *testing.T) {
	withReport(t)
	reportOn = false
	dir := tempDir(t)
	w := NewWriter(create(t, dir))
	fmtLines(w, 3)
	w.Flush()
	w.Setvbuf(LineBuffered, 0)
	fmtLines(w, 3)
	s := NewScanner(create(t, dir))
	s.Scan()
	if w.s.calls.taken != 0 {
		t.Errorf("the Writer counted %d calls with the report off", w.s.calls.taken)
	}
	if got := reportText(); strings.Count(string(got), "\n") != 1 {
		t.Errorf("report with the report off lists streams:\n%s", got)
	}
}

// TestReportSameOutput checks that a Writer the report counts writes
// what one it does not count writes, with the same calls, in every mode
// and through every write method.
func TestReportSameOutput(t *testing.T) {
	ops := func(w *Writer) {
		for i := range 300 {
			switch i % 6 {
			case 0:
				w.Write([]byte("write " + strconv.Itoa(i) + "\n"))
			case 1:
				w.WriteString(strings.Repeat("s", i))
			case 2:
				w.WriteByte('b')
			case 3:
				w.WriteRune('é')
			case 4:
				w.ReadFrom(strings.NewReader("from\n"))
			case 5:
				w.Write(bytes.Repeat([]byte{'\n'}, 100))
			}
		}
		w.Flush()
	}
	for _, mode := range []Mode{FullyBuffered, LineBuffered, Unbuffered} {
		t.Run(mode.String(), func(t *testing.T) {
			run := func(on bool) (string, Info) {
				withReport(t)
				reportOn = on
				f := create(t, tempDir(t))
				w := NewWriterPolicy(f, Policy(100))
				w.Setvbuf(mode, 100)
				ops(w)
				b, err := os.ReadFile(f.Name())
				if err != nil {
					t.Fatal(err)
				}
				return string(b), w.Info()
			}
			plain, plainInfo := run(false)
			counted, countedInfo := run(true)
			plainInfo.Fd, countedInfo.Fd = 0, 0 // two files
			if plain != counted {
				t.Errorf("counted Writer wrote %d bytes, uncounted %d; they differ", len(counted), len(plain))
			}
			if diff := cmp.Diff(plainInfo, countedInfo); diff != "" {
				t.Errorf("Info (-uncounted +counted):\n%s", diff)
			}
		})
	}
}

// TestReportAtExit checks that Exit prints the report, in a program that
// uses this package itself: it runs the test binary again as a child
// (reportChildEnv) with STDIOBUF_REPORT=1, which writes a file through a
// Writer and calls Exit(3).
func TestReportAtExit(t *testing.T) {
	if name := os.Getenv(reportChildEnv); name != "" {
		f, err := os.Create(name)
		if err != nil {
			os.Exit(2)
		}
		w := NewWriter(f)
		fmtLines(w, 5)
		w.Flush()
		Exit(3)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	name := filepath.Join(tempDir(t), "out")
	cmd := exec.Command(exe, "-test.run=^TestReportAtExit$")
	cmd.Env = append(os.Environ(), reportChildEnv+"="+name, reportEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Fatalf("child: %v, status %d, want 3; stderr:\n%s", err, code, stderr.String())
	}
	lines := reportFields(t, stderr.Bytes())
	if len(lines) != 2 {
		t.Fatalf("report has %d lines, want the writer's and the total:\n%s", len(lines), stderr.String())
	}
	want := map[string]string{"path": name, "dir": "write", "calls": "5", "writes": "1", "held": "0"}
	if diff := cmp.Diff(want, only(lines[0], "path", "dir", "calls", "writes", "held")); diff != "" {
		t.Errorf("writer's line (-want +got):\n%s", diff)
	}
}

// reportChildEnv names the file TestReportAtExit's child writes.
const reportChildEnv = "STREAM_TEST_REPORT_CHILD"

// TestReportStdoutRedirected checks the line of a writer over standard
// output that the parent sent to the null device or to a file, whose name
// (os.Stdout's, /dev/stdout) says neither: kind null and path os.DevNull,
// or kind file and the file's path. It runs the test binary again as a
// child (reportStdoutEnv) with STDIOBUF_REPORT=1.
func TestReportStdoutRedirected(t *testing.T) {
	if os.Getenv(reportStdoutEnv) != "" {
		w := NewWriter(os.Stdout)
		fmtLines(w, 5)
		w.Flush()
		Exit(0)
	}
	if runtime.GOOS != "windows" && fdPath(1) == "" {
		t.Skip("no /proc: standard output's path is its Name, /dev/stdout, and the null device is told by its path")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name string
		// open opens what the child's standard output is, and returns
		// its kind and path.
		open func(t *testing.T) (f *os.File, kind, path string)
	}{
		{"null device", func(t *testing.T) (*os.File, string, string) {
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			return f, "null", os.DevNull
		}},
		{"file", func(t *testing.T) (*os.File, string, string) {
			f := create(t, tempDir(t))
			return f, "file", f.Name()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, kind, path := tt.open(t)
			defer out.Close()
			cmd := exec.Command(exe, "-test.run=^TestReportStdoutRedirected$")
			cmd.Env = append(os.Environ(), reportStdoutEnv+"=1", reportEnv+"=1")
			cmd.Stdout = out
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v; stderr:\n%s", err, stderr.String())
			}
			checkStreamLine(t, stderr.Bytes(), map[string]string{"fd": "1", "kind": kind, "path": path,
				"dir": "write", "mode": "full", "calls": "5", "writes": "1", "held": "0", "saved": "0"})
		})
	}
}

// reportStdoutEnv makes TestReportStdoutRedirected's child.
const reportStdoutEnv = "STREAM_TEST_REPORT_STDOUT"

// fakeStream is a reportee with the counts it is given.
type fakeStream struct {
	i Info
	c counters
}

func (f fakeStream) reportState() (Info, counters, int) { return f.i, f.c, 0 }

// TestReportTotalCountsOnce checks that the total counts each system
// call once where a bufio stream reads or writes through one of package
// os's buffers (-files), whose line has the system calls, and that only
// package os's buffers save calls.
func TestReportTotalCountsOnce(t *testing.T) {
	withReport(t)
	reported.entries = []*reportEntry{
		// A -files read buffer over /in, and a bufio.Reader over the
		// same *os.File, reading from that buffer.
		{stream: fakeStream{i: Info{Reads: 9}}, dir: reading, buffer: "files", kind: "file", path: "/in"},
		{stream: fakeStream{i: Info{Reads: 9}}, dir: reading, buffer: "bufio", kind: "file", path: "/in"},
		// A bufio.Reader over a file package os does not buffer.
		{stream: fakeStream{i: Info{Reads: 3}}, dir: reading, buffer: "bufio", kind: "file", path: "/other"},
		// A -files write buffer over /out, and the program's
		// bufio.Writer writing into it.
		{stream: fakeStream{i: Info{Writes: 2}, c: counters{taken: 100}}, dir: writing, buffer: "files", kind: "file", path: "/out"},
		{stream: fakeStream{i: Info{Writes: 100}, c: counters{taken: 1000}}, dir: writing, buffer: "bufio", kind: "file", path: "/out"},
	}
	lines := reportFields(t, reportText())
	var saved []string
	for _, l := range lines[:len(lines)-1] {
		saved = append(saved, l["saved"])
	}
	if diff := cmp.Diff([]string{"", "", "", "98", "0"}, saved); diff != "" {
		t.Errorf("saved per line (-want +got):\n%s", diff)
	}
	want := map[string]string{"total": "", "streams": "5", "writers": "2", "calls": "1000", "writes": "2",
		"saved": "98", "readers": "3", "reads": "12", "kernel": "0"}
	if diff := cmp.Diff(want, lines[len(lines)-1]); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}

// TestReportPlainStreams checks the lines of descriptors package os reads
// or writes plainly (reportPlain, under -stdout and -files): buffer=none,
// mode none, policy none, the reason os gives, their calls as reads or
// writes; a bufio stream over such a file counts once in the total; a
// plain line whose calls all went to a buffer's line is left out.
func TestReportPlainStreams(t *testing.T) {
	withReport(t)
	plain := func(calls, bytes int64, why string) func() (int64, int64, string) {
		return func() (int64, int64, string) { return calls, bytes, why }
	}
	reported.entries = []*reportEntry{
		// Standard error, written plainly.
		{stream: &plainStream{fd: 2, state: plain(3, 21, "standard error: unbuffered, as in C")}, dir: writing, buffer: plainBuffer, kind: "pipe", path: "pipe:[1]"},
		// A file read in large blocks, and a bufio.Reader over it.
		{stream: &plainStream{fd: 5, state: plain(7, 100, "reads of 4096 bytes or more (and ReadAt) go straight to the file")}, dir: reading, buffer: plainBuffer, kind: "file", path: "/in"},
		{stream: fakeStream{i: Info{Reads: 7}}, dir: reading, buffer: "bufio", kind: "file", path: "/in"},
		// A bufio.Writer over a file written plainly.
		{stream: fakeStream{i: Info{Writes: 4}, c: counters{taken: 50}}, dir: writing, buffer: "bufio", kind: "file", path: "/out"},
		{stream: &plainStream{fd: 6, state: plain(4, 200, "written plainly")}, dir: writing, buffer: plainBuffer, kind: "file", path: "/out"},
		// Reads that went to a read buffer's line.
		{stream: &plainStream{fd: 8, state: plain(0, 0, "")}, dir: reading, buffer: plainBuffer, kind: "file", path: "/buffered"},
	}
	lines := reportFields(t, reportText())
	keys := []string{"fd", "buffer", "dir", "mode", "size", "policy", "reason", "calls", "writes", "reads", "bytes", "saved"}
	var got []map[string]string
	for _, l := range lines {
		p := map[string]string{}
		for _, k := range keys {
			if v, ok := l[k]; ok {
				p[k] = v
			}
		}
		if _, ok := l["total"]; ok {
			p = l
		}
		got = append(got, p)
	}
	want := []map[string]string{
		{"fd": "2", "buffer": "none", "dir": "write", "mode": "none", "size": "0", "policy": "none", "reason": "standard error: unbuffered, as in C",
			"calls": "3", "writes": "3", "bytes": "21", "saved": "0"},
		{"fd": "5", "buffer": "none", "dir": "read", "mode": "none", "size": "0", "policy": "none", "reason": "reads of 4096 bytes or more (and ReadAt) go straight to the file",
			"reads": "7", "bytes": "100"},
		{"fd": "0", "buffer": "bufio", "dir": "read", "mode": "full", "size": "0", "policy": "default", "reason": "", "reads": "7", "bytes": "0"},
		{"fd": "0", "buffer": "bufio", "dir": "write", "mode": "full", "size": "0", "policy": "default", "reason": "",
			"calls": "50", "writes": "4", "bytes": "0", "saved": "0"},
		{"fd": "6", "buffer": "none", "dir": "write", "mode": "none", "size": "0", "policy": "none", "reason": "written plainly",
			"calls": "4", "writes": "4", "bytes": "200", "saved": "0"},
		// Each system call once: the plain lines', the bufio streams'
		// calls into the *os.File left out.
		{"total": "", "streams": "5", "writers": "3", "calls": "53", "writes": "7", "saved": "0", "readers": "2", "reads": "7", "kernel": "0"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

// osPlainFile is a file as package os hands it to reportPlain under
// -stdout and -files: its original methods, and its buffer named none.
type osPlainFile struct{ *os.File }

func (osPlainFile) StdiobufBuffer() string { return plainBuffer }

// TestReportPlainRegisters checks that reportPlain registers a plain
// descriptor's line while the report is on, with its descriptor, its
// direction and what its state gives at exit, and nothing while it is
// off.
func TestReportPlainRegisters(t *testing.T) {
	// A pipe, not a file of t.TempDir, whose removal fails under wine.
	r, f, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer f.Close()
	state := func() (int64, int64, string) { return 2, 10, "written plainly" }
	withReport(t)
	reportOn = false
	reportPlain(osPlainFile{f}, true, state)
	if n := len(reported.entries); n != 0 {
		t.Fatalf("report off: %d entries, want 0", n)
	}
	reportOn = true
	reportPlain(osPlainFile{f}, true, state)
	lines := reportFields(t, reportText())
	got := map[string]string{}
	for _, k := range []string{"fd", "buffer", "dir", "kind", "reason", "writes", "bytes"} {
		got[k] = lines[0][k]
	}
	want := map[string]string{
		"fd": strconv.Itoa(int(f.Fd())), "buffer": "none", "dir": "write", "kind": "pipe",
		"reason": "written plainly", "writes": "2", "bytes": "10",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("line (-want +got):\n%s", diff)
	}
}
