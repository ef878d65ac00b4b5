//go:build linux

package osstdout_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The report tests build testdata/report with `stdiobuf build`, -stdout
// and -files, run it with STDIOBUF_REPORT set, and read the report at
// exit: its lines, where it goes, and its counts against strace's.

var reportBuild programSet

// reportPrograms returns testdata/report built with each overlay, by
// name: plain (`stdiobuf build`), stdout and files.
func reportPrograms(t *testing.T) map[string]string {
	t.Helper()
	bins := reportBuild.build(t, "report", "", "-stdout", "-files")
	return map[string]string{"plain": bins[""], "stdout": bins["-stdout"], "files": bins["-files"]}
}

// reportRun runs bin with args and the environment variable set as
// value (unset if value is "-"), standard output to stdout (a file
// path; "" for a pipe), and returns its stderr and exit status.
func reportRun(t *testing.T, bin, value, stdout string, args ...string) (stderr string, status int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = envWithout(os.Environ(), "STDIOBUF_REPORT")
	if value != "-" {
		cmd.Env = append(cmd.Env, "STDIOBUF_REPORT="+value)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if stdout != "" {
		f, err := os.Create(stdout)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return errb.String(), cmd.ProcessState.ExitCode()
}

// envWithout returns env without the variable name.
func envWithout(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// reportLine is one line of the report: its fields, quoted values
// unquoted.
type reportLine map[string]string

var reportField = regexp.MustCompile(`(\w+)(?:=("(?:[^"\\]|\\.)*"|\S*))?`)

// parseReport returns the report's stream lines and its total; it fails
// the test on any other line.
func parseReport(t *testing.T, text string) (streams []reportLine, total reportLine) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "stdiobuf report: ")
		if !ok {
			t.Fatalf("not a report line: %q in\n%s", line, text)
		}
		l := reportLine{}
		for _, m := range reportField.FindAllStringSubmatch(rest, -1) {
			v := m[2]
			if strings.HasPrefix(v, `"`) {
				u, err := strconv.Unquote(v)
				if err != nil {
					t.Fatalf("field %s of %q: %v", m[1], line, err)
				}
				v = u
			}
			l[m[1]] = v
		}
		if _, ok := l["total"]; ok {
			total = l
			continue
		}
		streams = append(streams, l)
	}
	if total == nil {
		t.Fatalf("report without a total:\n%s", text)
	}
	return streams, total
}

// num is line's field name as a number.
func (l reportLine) num(t *testing.T, name string) int {
	t.Helper()
	n, err := strconv.Atoi(l[name])
	if err != nil {
		t.Fatalf("field %s of %v: %v", name, l, err)
	}
	return n
}

// fileSize is the size of the file name.
func fileSize(t *testing.T, name string) string {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(fi.Size(), 10)
}

// pick returns the fields of l named in keys.
func (l reportLine) pick(keys ...string) reportLine {
	out := reportLine{}
	for _, k := range keys {
		out[k] = l[k]
	}
	return out
}

// checkTotal checks that the total adds up the stream lines.
func checkTotal(t *testing.T, streams []reportLine, total reportLine) {
	t.Helper()
	sums := map[string]int{}
	for _, l := range streams {
		switch l["dir"] {
		case "write":
			sums["writers"]++
			for _, k := range []string{"calls", "writes", "saved"} {
				sums[k] += l.num(t, k)
			}
		case "read":
			sums["readers"]++
			sums["reads"] += l.num(t, "reads")
		}
		sums["kernel"] += l.num(t, "kernel")
	}
	sums["streams"] = len(streams)
	got := map[string]int{}
	for k := range sums {
		got[k] = total.num(t, k)
	}
	if diff := cmp.Diff(sums, got); diff != "" {
		t.Errorf("total does not add up the streams (-sums +total):\n%s", diff)
	}
}

const reportLines = 1000

func TestReportBufio(t *testing.T) {
	bin := reportPrograms(t)["plain"]
	dir := t.TempDir()
	stderr, status := reportRun(t, bin, "1", "", "bufio", dir, strconv.Itoa(reportLines))
	if status != 0 {
		t.Fatalf("status %d, stderr:\n%s", status, stderr)
	}
	streams, total := parseReport(t, stderr)
	out := filepath.Join(dir, "out")
	size := fileSize(t, out)
	var got []reportLine
	for _, l := range streams {
		got = append(got, l.pick("kind", "path", "dir", "mode", "policy", "bytes", "calls", "held"))
	}
	// The writer, then the Scanner and the Reader over the file it wrote.
	want := []reportLine{
		{"kind": "file", "path": out, "dir": "write", "mode": "full", "policy": "blksize", "bytes": size, "calls": strconv.Itoa(reportLines), "held": "0"},
		{"kind": "file", "path": out, "dir": "read", "mode": "full", "policy": "blksize", "bytes": size, "calls": "", "held": ""},
		{"kind": "file", "path": out, "dir": "read", "mode": "full", "policy": "blksize", "bytes": size, "calls": "", "held": ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s\n%s", diff, stderr)
	}
	checkTotal(t, streams, total)
	// The program's own buffers are the plain build's too: they save
	// nothing over it.
	for _, l := range append(streams, total) {
		if l["dir"] != "read" && l.num(t, "saved") != 0 {
			t.Errorf("saved %d system calls, want none:\n%s", l.num(t, "saved"), stderr)
		}
	}
}

// TestReportOSBuffers checks the lines of package os's buffers: -stdout's
// standard output to a file, written with fmt.Println, and a -files file
// written with fmt.Fprintln.
func TestReportOSBuffers(t *testing.T) {
	bins := reportPrograms(t)
	for _, c := range []struct {
		build, buffer string
		args          []string // DIR is the test's directory
		out           string   // the file written, in DIR
	}{
		{"stdout", "stdout", []string{"println", strconv.Itoa(reportLines)}, "stdout"},
		{"files", "files", []string{"files", "DIR", strconv.Itoa(reportLines)}, "out"},
	} {
		t.Run(c.build, func(t *testing.T) {
			dir := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			out := filepath.Join(dir, c.out)
			stderr, status := reportRun(t, bins[c.build], "1", filepath.Join(dir, "stdout"), args...)
			if status != 0 {
				t.Fatalf("status %d, stderr:\n%s", status, stderr)
			}
			streams, total := parseReport(t, stderr)
			if len(streams) != 1 {
				t.Fatalf("%d streams, want one:\n%s", len(streams), stderr)
			}
			want := reportLine{"buffer": c.buffer, "kind": "file", "path": out, "dir": "write", "mode": "full",
				"bytes": fileSize(t, out), "calls": strconv.Itoa(reportLines), "held": "0"}
			if diff := cmp.Diff(want, streams[0].pick("buffer", "kind", "path", "dir", "mode", "bytes", "calls", "held")); diff != "" {
				t.Errorf("line (-want +got):\n%s\n%s", diff, stderr)
			}
			checkTotal(t, streams, total)
			// Each of the program's writes to the file is a write(2) in
			// the plain build.
			if got, want := streams[0].num(t, "saved"), streams[0].num(t, "calls")-streams[0].num(t, "writes"); got != want {
				t.Errorf("saved %d, want calls less writes, %d:\n%s", got, want, stderr)
			}
		})
	}
}

// TestReportPlainLines checks the lines of descriptors that package os
// reads or writes without a buffer (buffer=none): each says why, and
// counts the plain Reads and Writes; a read buffer's line under -files
// has the reads made before its decision, so its bytes are the file's.
func TestReportPlainLines(t *testing.T) {
	bins := reportPrograms(t)
	const n = 1000
	for _, c := range []struct {
		build string
		args  []string // DIR is the test's directory
		keys  []string // the fields compared
		want  func(out, size string) []reportLine
	}{
		{"stdout", []string{"stderr", "3"}, []string{"fd", "buffer", "kind", "dir", "mode", "policy", "reason", "calls", "writes", "bytes", "saved"},
			func(out, size string) []reportLine {
				return []reportLine{{"fd": "2", "buffer": "none", "kind": "pipe", "dir": "write", "mode": "none", "policy": "none",
					"reason": "standard error: unbuffered, as in C", "calls": "3", "writes": "3", "bytes": "21", "saved": "0"}}
			}},
		{"files", []string{"stderr", "3"}, []string{"fd", "buffer", "dir", "reason", "calls", "writes", "bytes"},
			func(out, size string) []reportLine {
				return []reportLine{{"fd": "2", "buffer": "none", "dir": "write",
					"reason": "standard error: unbuffered, as in C", "calls": "3", "writes": "3", "bytes": "21"}}
			}},
		{"stdout", []string{"files", "DIR", strconv.Itoa(n)}, []string{"buffer", "kind", "path", "dir", "reason", "calls", "writes", "bytes", "saved"},
			func(out, size string) []reportLine {
				return []reportLine{{"buffer": "none", "kind": "file", "path": out, "dir": "write",
					"reason": "-stdout buffers standard output only", "calls": strconv.Itoa(n), "writes": strconv.Itoa(n), "bytes": size, "saved": "0"}}
			}},
		{"files", []string{"blocks", "DIR", strconv.Itoa(n)}, []string{"buffer", "path", "dir", "reason", "calls", "bytes"},
			func(out, size string) []reportLine {
				return []reportLine{
					{"buffer": "none", "path": out, "dir": "write", "reason": "written once: a buffer is decided at the second Write", "calls": "1", "bytes": size},
					{"buffer": "none", "path": out, "dir": "read", "reason": "reads of 4096 bytes or more (and ReadAt) go straight to the file", "calls": "", "bytes": size},
				}
			}},
		{"files", []string{"fscan", "DIR", strconv.Itoa(n)}, []string{"buffer", "path", "dir", "bytes"},
			func(out, size string) []reportLine {
				return []reportLine{
					{"buffer": "none", "path": out, "dir": "write", "bytes": size},
					{"buffer": "files", "path": out, "dir": "read", "bytes": size},
				}
			}},
	} {
		t.Run(c.build+"/"+c.args[0], func(t *testing.T) {
			dir := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			report := filepath.Join(dir, "report")
			stderr, status := reportRun(t, bins[c.build], report, filepath.Join(dir, "stdout"), args...)
			if status != 0 {
				t.Fatalf("status %d, stderr:\n%s", status, stderr)
			}
			text, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			streams, total := parseReport(t, string(text))
			out := filepath.Join(dir, "out")
			size := ""
			if _, err := os.Stat(out); err == nil {
				size = fileSize(t, out)
			}
			var got []reportLine
			for _, l := range streams {
				got = append(got, l.pick(c.keys...))
			}
			want := c.want(out, size)
			for i := range want {
				want[i] = want[i].pick(c.keys...)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("report (-want +got):\n%s\n%s", diff, text)
			}
			checkTotal(t, streams, total)
		})
	}
}

// TestReportWhere checks where the report goes for each value of the
// variable, that it never changes the exit status, and that unset, empty
// and 0 print nothing and create nothing.
func TestReportWhere(t *testing.T) {
	bins := reportPrograms(t)
	for _, build := range []string{"plain", "stdout", "files"} {
		for _, c := range []struct {
			name, value string
			file        bool // the report goes to the file "report"
			report      bool // there is a report
			message     bool // a one-line message on stderr before it
		}{
			{"unset", "-", false, false, false},
			{"empty", "", false, false, false},
			{"zero", "0", false, false, false},
			{"stderr", "1", false, true, false},
			{"file", "report", true, true, false},
			{"bad path", "nodir/report", false, true, true},
		} {
			for _, code := range []int{0, 3} {
				t.Run(fmt.Sprintf("%s/%s/exit%d", build, c.name, code), func(t *testing.T) {
					dir := t.TempDir()
					value := c.value
					if value != "-" && value != "" && value != "0" && value != "1" {
						value = filepath.Join(dir, value)
					}
					stderr, status := reportRun(t, bins[build], value, filepath.Join(dir, "stdout"), "exit", strconv.Itoa(code))
					if status != code {
						t.Errorf("status %d, want %d", status, code)
					}
					if c.message {
						first, rest, _ := strings.Cut(stderr, "\n")
						want := "stdiobuf: STDIOBUF_REPORT=" + strconv.Quote(value) + ": open " + value + ": no such file or directory; the report follows on standard error"
						if first != want {
							t.Errorf("message %q, want %q", first, want)
						}
						stderr = rest
					}
					var report string
					if c.file {
						b, err := os.ReadFile(value)
						if err != nil {
							t.Fatal(err)
						}
						report = string(b)
					} else {
						report, stderr = stderr, ""
					}
					if stderr != "" {
						t.Errorf("stderr %q, want nothing", stderr)
					}
					entries, err := os.ReadDir(dir)
					if err != nil {
						t.Fatal(err)
					}
					var names []string
					for _, e := range entries {
						names = append(names, e.Name())
					}
					wantNames := []string{"stdout"}
					if c.file {
						wantNames = []string{"report", "stdout"}
					}
					if diff := cmp.Diff(wantNames, names); diff != "" {
						t.Errorf("files made (-want +got):\n%s", diff)
					}
					if !c.report {
						if report != "" {
							t.Errorf("report %q, want none", report)
						}
						return
					}
					// The program's bufio.Writer over standard output, and
					// under -stdout os's buffer under it.
					streams, _ := parseReport(t, report)
					var got []reportLine
					for _, l := range streams {
						got = append(got, l.pick("fd", "buffer", "calls", "held"))
					}
					want := []reportLine{{"fd": "1", "buffer": "bufio", "calls": "1", "held": "0"}}
					if build != "plain" {
						want = append(want, reportLine{"fd": "1", "buffer": "stdout", "calls": "1", "held": "0"})
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("report (-want +got):\n%s\n%s", diff, report)
					}
				})
			}
		}
	}
}

// TestReportAgreesWithStrace runs each build under strace and compares
// the report's read and write calls per stream with the system calls
// strace saw on that descriptor and file.
func TestReportAgreesWithStrace(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed: the report's counts are not compared with strace's")
	}
	bins := reportPrograms(t)
	for _, c := range []struct {
		build string
		args  []string
	}{
		{"plain", []string{"bufio", "DIR", "5000"}},
		{"stdout", []string{"println", "5000"}},
		{"files", []string{"files", "DIR", "5000"}},
		{"files", []string{"bufio", "DIR", "5000"}},
		// Descriptors os reads or writes plainly have lines too, and a
		// read buffer's line has the reads before its decision.
		{"stdout", []string{"bufio", "DIR", "5000"}},
		{"stdout", []string{"files", "DIR", "1000"}},
		{"stdout", []string{"stderr", "100"}},
		{"files", []string{"stderr", "100"}},
		{"files", []string{"blocks", "DIR", "5000"}},
		{"files", []string{"fscan", "DIR", "1000"}},
	} {
		t.Run(c.build+"/"+c.args[0], func(t *testing.T) {
			dir := t.TempDir()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			trace, report := filepath.Join(dir, "trace"), filepath.Join(dir, "report")
			out, status := reportRun(t, strace, report, filepath.Join(dir, "stdout"),
				append([]string{"-f", "-qq", "-y", "-o", trace, "-e", "trace=" + tracedCalls, bins[c.build]}, args...)...)
			if status != 0 {
				if strings.Contains(out, "PTRACE") || strings.Contains(out, "ptrace") {
					t.Skip("strace cannot trace here: " + out)
				}
				t.Fatalf("strace: status %d\n%s", status, out)
			}
			text, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			streams, total := parseReport(t, string(text))
			if len(streams) == 0 {
				t.Fatalf("empty report:\n%s", text)
			}
			seen := straceCalls(t, trace)
			// The total counts each system call on the streams'
			// descriptors once.
			keys := map[string]bool{}
			for _, l := range streams {
				keys[l["fd"]+"<"+l["path"]+">"] = true
			}
			traced := map[string]int{}
			for key := range keys {
				traced["writes"] += seen[key]["write"]
				traced["reads"] += seen[key]["read"]
			}
			if diff := cmp.Diff(traced, map[string]int{"writes": total.num(t, "writes"), "reads": total.num(t, "reads")}); diff != "" {
				t.Errorf("total: strace and the report disagree (-strace +report):\n%s\n%s", diff, text)
			}
			// A bufio Writer over a file that os buffers writes into
			// os's buffer, whose line has the system calls.
			osBuffered := map[string]bool{}
			for _, l := range streams {
				if l["buffer"] != "bufio" {
					osBuffered[l["fd"]+"<"+l["path"]+">"] = true
				}
			}
			for _, l := range streams {
				if l["buffer"] == "bufio" && osBuffered[l["fd"]+"<"+l["path"]+">"] {
					continue
				}
				key := l["fd"] + "<" + l["path"] + ">"
				calls := l["dir"] + "s" // writes or reads
				got := map[string]int{calls: l.num(t, calls), "kernel": l.num(t, "kernel"), "bytes": l.num(t, "bytes")}
				want := map[string]int{calls: seen[key][l["dir"]], "kernel": seen[key]["kernel"], "bytes": seen[key][l["dir"]+" bytes"]}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (%s): strace and the report disagree (-strace +report):\n%s\n%s", key, l["dir"], diff, text)
				}
			}
		})
	}
}

// TestReportChangesNoCalls checks that the report makes the program make
// no other system calls on its files: a -files build writing two files in
// turn makes the same writes with the report on as with it off (the
// report names a stream at its first write, which must not write out the
// other file's buffer, as a path operation would).
func TestReportChangesNoCalls(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed: the program's system calls are not compared")
	}
	bin := reportPrograms(t)["files"]
	writes := func(value string) map[string]int {
		dir := t.TempDir()
		trace := filepath.Join(dir, "trace")
		out, status := reportRun(t, strace, value, filepath.Join(dir, "stdout"),
			"-f", "-qq", "-y", "-o", trace, "-e", "trace="+tracedCalls, bin, "interleave", dir, "10")
		if status != 0 {
			t.Fatalf("strace: status %d\n%s", status, out)
		}
		got := map[string]int{}
		for key, calls := range straceCalls(t, trace) {
			for _, name := range []string{"a", "b"} {
				if strings.HasSuffix(key, "/"+name+">") {
					got[name] += calls["write"]
				}
			}
		}
		return got
	}
	off, on := writes("-"), writes("1")
	if off["a"] == 0 || off["b"] == 0 {
		t.Fatalf("strace saw no writes to a and b: %v", off)
	}
	if diff := cmp.Diff(off, on); diff != "" {
		t.Errorf("write(2) calls per file (-report off +report on):\n%s", diff)
	}
}

// tracedCalls are the system calls a stream makes on its descriptor.
const tracedCalls = "read,write,pread64,pwrite64,readv,writev,copy_file_range,sendfile,splice"

// straceCalls counts, per descriptor and path ("3</tmp/out>"), the reads
// and writes (and their bytes) and the kernel copies strace saw.
func straceCalls(t *testing.T, trace string) map[string]map[string]int {
	t.Helper()
	calls := map[string]map[string]int{}
	for _, c := range straceTrace(t, trace) {
		if !strings.HasSuffix(c.fd, ">") {
			continue // not a descriptor's call
		}
		kind := ""
		switch c.name {
		case "read", "pread64", "readv":
			kind = "read"
		case "write", "pwrite64", "writev":
			kind = "write"
		default:
			kind = "kernel"
		}
		if calls[c.fd] == nil {
			calls[c.fd] = map[string]int{}
		}
		calls[c.fd][kind]++
		if c.result > 0 && kind != "kernel" {
			calls[c.fd][kind+" bytes"] += c.result
		}
	}
	return calls
}

// A tracedCall is one system call in `strace -f -y` output, a call
// interrupted across threads joined to its end.
type tracedCall struct {
	name    string
	fd, fd2 string // the first two arguments, as "3</path>"
	count   int    // the last argument, a read's count
	result  int    // 0 where there is none (`= ?`, a call that never ended)
}

var (
	traceStart   = regexp.MustCompile(`^(?:(\d+) +)?(\w+)\((.*)$`)
	traceResumed = regexp.MustCompile(`^(\d+) +<\.\.\. (\w+) resumed>(.*)$`)
	traceEnd     = regexp.MustCompile(`\) += (-?\d+)`)
)

// straceTrace returns the calls in trace, in the order they started: a
// call interrupted across threads where it starts, its arguments and
// result joined from its end (the "resumed" line of the same pid).
func straceTrace(t *testing.T, trace string) []*tracedCall {
	t.Helper()
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []*tracedCall
	open := map[string]*tracedCall{} // pid to its unfinished call
	text := map[*tracedCall]string{} // a call's arguments so far
	finish := func(c *tracedCall, args string) {
		if m := traceEnd.FindAllStringSubmatchIndex(args, -1); m != nil {
			last := m[len(m)-1]
			c.result, _ = strconv.Atoi(args[last[2]:last[3]])
			args = args[:last[0]]
		}
		a := strings.Split(args, ", ")
		c.fd = a[0]
		if len(a) > 1 {
			c.fd2 = a[1]
		}
		c.count, _ = strconv.Atoi(a[len(a)-1])
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := traceResumed.FindStringSubmatch(line); m != nil {
			if c := open[m[1]]; c != nil && c.name == m[2] {
				delete(open, m[1])
				finish(c, text[c]+m[3])
			}
			continue
		}
		m := traceStart.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		c := &tracedCall{name: m[2]}
		calls = append(calls, c)
		if rest, ok := strings.CutSuffix(m[3], " <unfinished ...>"); ok {
			text[c] = rest
			open[m[1]] = c
			finish(c, rest) // the descriptor, in case it never ends
			continue
		}
		finish(c, m[3])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return calls
}
