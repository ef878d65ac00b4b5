// Command reporttotals compares a program's report at exit
// (STDIOBUF_REPORT) with what `strace -f -qq -y` saw it do, per
// descriptor of the program's files and in total (bench/report-totals.sh
// runs it):
//
//	reporttotals [-name NAME] [-exclude PATH]... REPORT TRACE
//
// It prints one markdown row per descriptor and file ("3</tmp/in>") that
// either names, with the report's reads, writes and kernel copies (of
// its lines that count system calls: buffers of package os's, plain
// descriptors, and bufio streams over no such line) and strace's, then a
// row for the totals: the report's total line against the sum of
// strace's calls on the program's files. The program's files are every
// descriptor strace saw but those on /proc, /sys, anon_inode: (the
// runtime's) and the paths given with -exclude (the report's own file).
// It exits 1 if a count differs.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// counts are the system calls of one descriptor, or of all.
type counts struct{ reads, writes, kernel int64 }

type excludes []string

func (e *excludes) String() string     { return strings.Join(*e, ",") }
func (e *excludes) Set(s string) error { *e = append(*e, s); return nil }

func main() {
	name := flag.String("name", "", "the program's name, the rows' first column")
	var ex excludes
	flag.Var(&ex, "exclude", "a path whose calls are not the program's (repeatable)")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: reporttotals [-name NAME] [-exclude PATH]... REPORT TRACE")
		os.Exit(2)
	}
	rep, total, err := readReport(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "reporttotals:", err)
		os.Exit(2)
	}
	tr, err := readTrace(flag.Arg(1), ex)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reporttotals:", err)
		os.Exit(2)
	}
	keys := map[string]bool{}
	for k := range rep {
		keys[k] = true
	}
	for k := range tr {
		keys[k] = true
	}
	sorted := slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	})
	status := 0
	var traced counts
	for _, k := range sorted {
		r, t := rep[k], tr[k]
		traced.reads += t.reads
		traced.writes += t.writes
		traced.kernel += t.kernel
		fmt.Printf("| %s | `%s` | %s | %s | %s |\n", *name, k, pair(r.reads, t.reads), pair(r.writes, t.writes), pair(r.kernel, t.kernel))
		if r != t {
			status = 1
		}
	}
	fmt.Printf("| %s | **total** | %s | %s | %s |\n", *name, pair(total.reads, traced.reads), pair(total.writes, traced.writes), pair(total.kernel, traced.kernel))
	if total != traced {
		status = 1
	}
	os.Exit(status)
}

// pair formats a count of the report's and strace's: one number where
// they agree.
func pair(report, strace int64) string {
	if report == strace {
		return strconv.FormatInt(report, 10)
	}
	return fmt.Sprintf("**%d ≠ %d**", report, strace)
}

var field = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)

// readReport returns the report's counts per descriptor and file, of
// the lines that count system calls, and its total.
func readReport(name string) (map[string]counts, counts, error) {
	text, err := os.ReadFile(name)
	if err != nil {
		return nil, counts{}, err
	}
	var lines []map[string]string
	var total counts
	for line := range strings.Lines(string(text)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "stdiobuf report: ")
		if !ok {
			continue
		}
		l := map[string]string{}
		for _, m := range field.FindAllStringSubmatch(rest, -1) {
			v := m[2]
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			}
			l[m[1]] = v
		}
		if strings.HasPrefix(rest, "total ") {
			total = counts{num(l["reads"]), num(l["writes"]), num(l["kernel"])}
			continue
		}
		lines = append(lines, l)
	}
	// A bufio stream over a file that os buffers or reads or writes
	// plainly makes its calls into that file's line, which counts the
	// system calls.
	type use struct{ dir, key string }
	counted := map[use]bool{}
	for _, l := range lines {
		if l["buffer"] != "bufio" {
			counted[use{l["dir"], l["path"]}] = true
		}
	}
	out := map[string]counts{}
	for _, l := range lines {
		if l["buffer"] == "bufio" && counted[use{l["dir"], l["path"]}] {
			continue
		}
		k := l["fd"] + "<" + l["path"] + ">"
		c := out[k]
		c.reads += num(l["reads"])
		c.writes += num(l["writes"])
		c.kernel += num(l["kernel"])
		out[k] = c
	}
	return out, total, nil
}

func num(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// traceCall matches a call's start in `strace -f -y` output: its name
// and first argument, a descriptor with its path.
var traceCall = regexp.MustCompile(`^(?:\d+ +)?(\w+)\((\d+<[^>]*>)`)

// readTrace returns strace's read-family, write-family and kernel-copy
// calls per descriptor and file, those on excluded paths left out. A
// call interrupted across threads counts at its start.
func readTrace(name string, ex excludes) (map[string]counts, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]counts{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := traceCall.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		k := m[2]
		path := k[strings.IndexByte(k, '<')+1 : len(k)-1]
		if strings.HasPrefix(path, "/proc/") || strings.HasPrefix(path, "/sys/") || strings.HasPrefix(path, "anon_inode:") || slices.Contains(ex, path) {
			continue
		}
		c := out[k]
		switch m[1] {
		case "read", "pread64", "readv", "preadv", "preadv2":
			c.reads++
		case "write", "pwrite64", "writev", "pwritev", "pwritev2":
			c.writes++
		case "copy_file_range", "sendfile", "splice", "tee":
			c.kernel++
		default:
			continue
		}
		out[k] = c
	}
	return out, sc.Err()
}
