// Command stdoutstd compares two `go test -json` runs of the same
// packages, a plain one and one under the `stdiobuf build -stdout` (or
// -files) overlay, and reports, as Markdown on standard output, the
// counts of each run and every test (or package) that passed plainly
// and did not pass under the overlay; with -outputs, also the tests
// whose output differs once timings are taken out. -name is the
// overlay's flag as the report names it (default -stdout).
//
//	go run ./bench/stdoutstd [-outputs] [-name -files] PLAIN.json OVERLAY.json
//
// Exit status: 0 when nothing that passed plainly failed under the
// overlay, 1 when something did, 2 on bad input.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (test2json) output.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// address matches a pointer in a subtest's name (errors' TestAs names
// its subtests after the target's address), which differs between runs.
var address = regexp.MustCompile(`0x[0-9a-f]+`)

// key names a test, or a package when Test is empty.
type key struct{ Package, Test string }

func (k key) String() string {
	if k.Test == "" {
		return k.Package + " (package)"
	}
	return k.Package + " " + k.Test
}

// run is what one `go test -json` run reported.
type run struct {
	result map[key]string   // the last pass, fail or skip of each test and package
	output map[key][]string // each test's output lines, in order
}

// read parses a `go test -json` stream. Lines that are not JSON (the go
// command's own messages on a build failure) are kept as output of the
// package-less key.
func read(r io.Reader) (*run, error) {
	out := &run{result: map[key]string{}, output: map[key][]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			continue
		}
		k := key{e.Package, address.ReplaceAllString(e.Test, "0x?")}
		switch e.Action {
		case "pass", "fail", "skip":
			out.result[k] = e.Action
		case "output":
			out.output[k] = append(out.output[k], e.Output)
		}
	}
	return out, sc.Err()
}

// counts returns how many tests (not packages) passed, failed and were
// skipped.
func (r *run) counts() (pass, fail, skip int) {
	for k, a := range r.result {
		if k.Test == "" {
			continue
		}
		switch a {
		case "pass":
			pass++
		case "fail":
			fail++
		case "skip":
			skip++
		}
	}
	return
}

// timing matches what changes from run to run in a test's output:
// durations, addresses, goroutine ids, temporary paths, long numbers and
// hexadecimal strings (random keys, hashes).
var timing = regexp.MustCompile(`\(\d+\.\d+s\)|\d+(\.\d+)?(ns|µs|us|ms|s|m)\b|0x[0-9a-f]+|goroutine \d+|/tmp/[^ \t\n:]+|\b\d{4,}\b|\b[0-9a-f]{16,}\b`)

func normalize(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(timing.ReplaceAllString(l, "#"))
	}
	return b.String()
}

// regressions returns the tests and packages that passed in plain and
// did not pass in buffered (failed, or never reported), sorted.
func regressions(plain, buffered *run) []key {
	var out []key
	for k, a := range plain.result {
		if a == "pass" && buffered.result[k] != "pass" {
			out = append(out, k)
		}
	}
	sortKeys(out)
	return out
}

// differing returns the tests that passed in both runs with different
// normalized output.
func differing(plain, buffered *run) []key {
	var out []key
	for k, a := range plain.result {
		if k.Test == "" || a != "pass" || buffered.result[k] != "pass" {
			continue
		}
		if normalize(plain.output[k]) != normalize(buffered.output[k]) {
			out = append(out, k)
		}
	}
	sortKeys(out)
	return out
}

func sortKeys(ks []key) {
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].Package != ks[j].Package {
			return ks[i].Package < ks[j].Package
		}
		return ks[i].Test < ks[j].Test
	})
}

func readFile(name string) (*run, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(r.result) == 0 {
		return nil, fmt.Errorf("%s: no test results (not `go test -json` output?)", name)
	}
	return r, nil
}

// report writes the comparison of plain with buffered, the run under the
// overlay named name, and returns the regressions.
func report(w io.Writer, plain, buffered *run, name string, outputs bool) []key {
	pp, pf, ps := plain.counts()
	bp, bf, bs := buffered.counts()
	fmt.Fprintf(w, "| run | tests passed | failed | skipped |\n|---|---|---|---|\n")
	fmt.Fprintf(w, "| plain | %d | %d | %d |\n| %s | %d | %d | %d |\n\n", pp, pf, ps, name, bp, bf, bs)
	reg := regressions(plain, buffered)
	fmt.Fprintf(w, "Passed plainly, not under %s: %d\n\n", name, len(reg))
	for _, k := range reg {
		got := buffered.result[k]
		if got == "" {
			got = "no result"
		}
		fmt.Fprintf(w, "- %s: %s\n", k, got)
	}
	if outputs {
		diff := differing(plain, buffered)
		fmt.Fprintf(w, "\nPassed both ways with different output (timings, addresses and long numbers taken out): %d\n\n", len(diff))
		for _, k := range diff {
			fmt.Fprintf(w, "- %s\n", k)
		}
	}
	return reg
}

func main() {
	outputs := flag.Bool("outputs", false, "also list the tests whose output differs")
	name := flag.String("name", "-stdout", "the overlay's `flag`, as the report names the second run")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: stdoutstd [-outputs] [-name FLAG] PLAIN.json OVERLAY.json")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	plain, err1 := readFile(flag.Arg(0))
	buffered, err2 := readFile(flag.Arg(1))
	if err := errors.Join(err1, err2); err != nil {
		fmt.Fprintln(os.Stderr, "stdoutstd:", err)
		os.Exit(2)
	}
	if len(report(os.Stdout, plain, buffered, *name, *outputs)) > 0 {
		os.Exit(1)
	}
}
