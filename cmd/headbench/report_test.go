//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/streamstats"
	"golang.org/x/perf/benchfmt"
)

// fixture returns results as a run on two targets would fill them: four
// runs of each figure, one of which failed, and a figure that never ran.
func fixture(t *testing.T) *results {
	t.Helper()
	tools := &tools{getdelim: "/x/getdelim", head: "/usr/bin/head", cat: "/bin/cat", missing: map[string]string{}}
	o := &options{paths: []string{pathLoop}, policies: []string{"bufsiz", "blksize"}, sweep: []int64{1024, 65536}, peers: []string{"head", "cat"}}
	figs, notes := planFigures(o, tools)
	if len(notes) != 0 || len(figs) != 6 {
		t.Fatalf("planFigures: %d figures, notes %q", len(figs), notes)
	}
	figs[5].Title = "cat <the floor> & more" // to be escaped in XML
	targets := []*target{
		{Name: "local", Input: "/cache/in", FSType: "ext4", Blksize: 4096},
		{Name: "xfs128k", Input: "/tmp/h/xfs128k/input", FSType: "xfs", Blksize: 131072, Mount: "mount -o loop,largeio,allocsize=128k"},
	}
	base := map[string]float64{"policy=bufsiz": 54, "policy=blksize": 38, "policy=1024": 300, "policy=65536": 27, "peer=head": 108, "peer=cat": 12}
	var jobs []*job
	for ti, tg := range targets {
		for _, f := range figs {
			j := &job{fig: f, tgt: tg, checked: "ok", counts: &counts{Source: "strace -c -f", Reads: 10, Writes: 20}}
			for round := 1; round <= 4; round++ {
				rec := runRecord{Bench: j.bench(), Round: round}
				if f.Key == "peer=head" && tg.Name == "xfs128k" {
					rec.Err = "head: exit status 1"
					j.runs = append(j.runs, rec)
					continue
				}
				if round == 3 && f.Key == "policy=blksize" {
					rec.Err = "signal: killed"
					j.runs = append(j.runs, rec)
					continue
				}
				ms := base[f.Key] * (1 + 0.01*float64(round)) / float64(ti+1)
				s := sample{Wall: time.Duration(ms * 1e6), User: time.Duration(ms * 4e5), Sys: time.Duration(ms * 6e5), MaxRSS: int64(round) << 20}
				j.samples = append(j.samples, s)
				rec.Wall, rec.User, rec.Sys, rec.MaxRSS = s.Wall, s.User, s.Sys, s.MaxRSS
				j.runs = append(j.runs, rec)
			}
			jobs = append(jobs, j)
		}
	}
	r := &results{
		Date:    time.Date(2026, 11, 30, 3, 40, 0, 0, time.UTC),
		Machine: machine{CPUs: 2, CPUModel: "AMD EPYC", MemBytes: 24 << 30, Kernel: "Linux 6.18.44", Arch: "amd64", Go: "go1.26.8", Libc: "glibc 2.36"},
		Input:   inputInfo{Path: "/cache/in", Bytes: 230140805, Lines: 290955, Generated: true, Seed: 1},
		Output:  "/dev/null", OutputBlksize: 4096, RunsPerFigure: 4, Spread: "min-max", Getdelim: "/x/getdelim (--getdelim)",
		Targets: targets, Notes: []string{"peer go-bufio: left out: no | pipe"},
	}
	r.fill(jobs, r.Input.Bytes)
	return r
}

func TestFill(t *testing.T) {
	r := fixture(t)
	type row struct {
		Bench   string
		Median  float64 // ms
		Speedup float64
		MaxRSS  int64
		N       int
	}
	var got []row
	for _, f := range r.Figures {
		rw := row{Bench: f.Bench, MaxRSS: f.MaxRSS}
		if f.Wall != nil {
			rw.Median, rw.N = math.Round(float64(f.Wall.Median)/1e4)/100, f.Wall.N
		}
		if f.Speedup != nil {
			rw.Speedup = math.Round(*f.Speedup*1000) / 1000
		}
		got = append(got, rw)
	}
	// Runs 1-4 take 1.01 to 1.04 times the base: the median of four is
	// 1.025 times it; blksize lost run 3, so its median is run 2's.
	want := []row{
		{"BenchmarkHead/policy=bufsiz/fs=local", 55.35, 1, 4 << 20, 4},
		{"BenchmarkHead/policy=blksize/fs=local", 38.76, 1.428, 4 << 20, 3},
		{"BenchmarkHead/policy=1024/fs=local", 307.5, 0.18, 4 << 20, 4},
		{"BenchmarkHead/policy=65536/fs=local", 27.68, 2, 4 << 20, 4},
		{"BenchmarkHead/peer=head/fs=local", 110.7, 0.5, 4 << 20, 4},
		{"BenchmarkHead/peer=cat/fs=local", 12.3, 4.5, 4 << 20, 4},
		{"BenchmarkHead/policy=bufsiz/fs=xfs128k", 27.68, 1, 4 << 20, 4},
		{"BenchmarkHead/policy=blksize/fs=xfs128k", 19.38, 1.428, 4 << 20, 3},
		{"BenchmarkHead/policy=1024/fs=xfs128k", 153.75, 0.18, 4 << 20, 4},
		{"BenchmarkHead/policy=65536/fs=xfs128k", 13.84, 2, 4 << 20, 4},
		{"BenchmarkHead/peer=head/fs=xfs128k", 0, 0, 0, 0},
		{"BenchmarkHead/peer=cat/fs=xfs128k", 6.15, 4.5, 4 << 20, 4},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
	if len(r.Runs) != 48 {
		t.Fatalf("%d runs, want 48", len(r.Runs))
	}
	for i := 1; i < len(r.Runs); i++ {
		if r.Runs[i].Round < r.Runs[i-1].Round {
			t.Fatalf("runs not in round order at %d: %d after %d", i, r.Runs[i].Round, r.Runs[i-1].Round)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	r := fixture(t)
	var buf bytes.Buffer
	if err := r.writeJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Fatal("results.json is not valid JSON")
	}
	var back results
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	opts := cmp.AllowUnexported(inputInfo{})
	if diff := cmp.Diff(r, &back, opts); diff != "" {
		t.Errorf("results.json does not read back the same (-wrote +read):\n%s", diff)
	}
	var raw map[string]any
	json.Unmarshal(buf.Bytes(), &raw)
	for _, key := range []string{"date", "machine", "input", "targets", "gains", "warnings", "figures", "runs", "notes", "runs_per_figure", "spread"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("results.json has no %q", key)
		}
	}
}

// benchResult is a result line as benchstat reads it.
type benchResult struct {
	Name   string
	Config map[string]string  // the file configuration in force
	Values map[string]float64 // by unit as written (ns/op, MB/s, ...)
}

// parseBenchFormat reads data with golang.org/x/perf/benchfmt, the reader
// benchstat uses, and fails on any line it finds malformed.
func parseBenchFormat(data string) ([]benchResult, error) {
	var out []benchResult
	rd := benchfmt.NewReader(strings.NewReader(data), "bench.txt")
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			// benchfmt drops the "Benchmark" prefix from names.
			r := benchResult{Name: "Benchmark" + rec.Name.String(), Config: map[string]string{}, Values: map[string]float64{}}
			for _, c := range rec.Config {
				if c.File {
					r.Config[c.Key] = string(c.Value)
				}
			}
			for _, v := range rec.Values {
				if v.OrigUnit != "" { // benchfmt made ns/op sec/op
					v.Unit, v.Value = v.OrigUnit, v.OrigValue
				}
				r.Values[v.Unit] = v.Value
			}
			out = append(out, r)
		}
	}
	return out, rd.Err()
}

// TestParseBenchFormatRejects: the reader fails where benchstat would.
func TestParseBenchFormatRejects(t *testing.T) {
	for _, line := range []string{"BenchmarkHead 1 five ns/op", "BenchmarkHead 1 5", "BenchmarkHead x 5 ns/op"} {
		if _, err := parseBenchFormat("goos: linux\n" + line + "\n"); err == nil {
			t.Errorf("parseBenchFormat accepted %q", line)
		}
	}
}

func TestWriteBench(t *testing.T) {
	r := fixture(t)
	var buf bytes.Buffer
	if err := r.writeBench(&buf); err != nil {
		t.Fatal(err)
	}
	parsed, err := parseBenchFormat(buf.String())
	if err != nil {
		t.Fatalf("bench.txt: %v\n%s", err, buf.String())
	}
	// One line per successful run, with its file system's configuration.
	want := map[string]int{}
	for _, run := range r.Runs {
		if run.Err == "" {
			want[run.Bench]++
		}
	}
	got := map[string]int{}
	for _, p := range parsed {
		got[p.Name]++
		fs := p.Name[strings.LastIndex(p.Name, "fs=")+3:]
		wantBlk := map[string]string{"local": "4096", "xfs128k": "131072"}[fs]
		if p.Config["fs"] != fs || p.Config["st-blksize"] != wantBlk || p.Config["cpu"] != "AMD EPYC" {
			t.Errorf("%s: configuration %v", p.Name, p.Config)
		}
		ns, mbps := p.Values["ns/op"], p.Values["MB/s"]
		if d := mbps - float64(r.Input.Bytes)/ns*1e3; math.Abs(d) > 0.01 {
			t.Errorf("%s: %v MB/s does not match %v ns/op", p.Name, mbps, ns)
		}
		for _, unit := range []string{"user-ns/op", "sys-ns/op", "maxrss-B"} {
			if _, ok := p.Values[unit]; !ok {
				t.Errorf("%s: no %s", p.Name, unit)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result lines per benchmark (-runs +bench.txt):\n%s", diff)
	}
}

// svgStats parses an SVG document and counts its elements by name and
// class; it fails on anything encoding/xml does not accept.
func svgStats(t *testing.T, data []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	n := map[string]int{}
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v\n%s", err, data)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 && (e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v, want svg in the SVG namespace", e.Name)
			}
			depth++
			n[e.Name.Local]++
			for _, a := range e.Attr {
				if a.Name.Local == "class" {
					n[e.Name.Local+"."+a.Value]++
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 || n["svg"] != 1 {
		t.Fatalf("SVG: %d svg elements, depth %d at the end", n["svg"], depth)
	}
	return n
}

func TestWriteSVG(t *testing.T) {
	r := fixture(t)
	var bars, sweep bytes.Buffer
	if err := r.writeBarsSVG(&bars); err != nil {
		t.Fatal(err)
	}
	if err := r.writeSweepSVG(&sweep); err != nil {
		t.Fatal(err)
	}
	// 4 policy and peer figures on 2 targets, less head on xfs128k.
	if n := svgStats(t, bars.Bytes())["rect.bar"]; n != 7 {
		t.Errorf("bar chart: %d bars, want 7", n)
	}
	if !strings.Contains(bars.String(), "cat &lt;the floor&gt; &amp; more") {
		t.Error("bar chart: the title with <, > and & is not escaped")
	}
	st := svgStats(t, sweep.Bytes())
	if st["polyline.series"] != 2 || st["circle"] != 4 {
		t.Errorf("sweep chart: %d series and %d points, want 2 and 4", st["polyline.series"], st["circle"])
	}

	// No figure at all still gives a well-formed chart.
	empty := &results{}
	var e1, e2 bytes.Buffer
	if err := empty.writeBarsSVG(&e1); err != nil {
		t.Fatal(err)
	}
	if err := empty.writeSweepSVG(&e2); err != nil {
		t.Fatal(err)
	}
	svgStats(t, e1.Bytes())
	svgStats(t, e2.Bytes())
}

func TestNiceAxis(t *testing.T) {
	for _, tc := range []struct{ hi, top, step float64 }{
		{6060, 8000, 2000}, {4100, 5000, 1000}, {950, 1000, 200}, {12, 15, 5}, {1, 1, 0.2}, {0, 1, 0.2}, {math.NaN(), 1, 0.2},
	} {
		top, step := niceAxis(tc.hi)
		if math.Abs(top-tc.top) > 1e-9 || math.Abs(step-tc.step) > 1e-9 {
			t.Errorf("niceAxis(%v) = %v, %v; want %v, %v", tc.hi, top, step, tc.top, tc.step)
		}
	}
}

func TestWriteMarkdown(t *testing.T) {
	r := fixture(t)
	var buf bytes.Buffer
	if err := r.writeMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"- Date: 2026-11-30 03:40 UTC",
		"2 CPUs (AMD EPYC), 24.0 GiB memory, Linux 6.18.44",
		"go1.26.8, glibc 2.36",
		"- getdelim: /x/getdelim (--getdelim)\n",
		"230140805 bytes, 290955 lines (generated, seed 1)",
		"| xfs128k | xfs: mount -o loop,largeio,allocsize=128k | 131072 |",
		"No headline: it needs the figures policy=bufsiz, policy=blksize, peer=c-default and peer=c-rule on a file system whose st_blksize is above 8192,",
		"| getdelim --loop, policy blksize | 38.8 ms (1.43x) | 19.4 ms (1.43x) |",
		"| GNU head | 111 ms (0.50x) | – |",
		"## fs=xfs128k: xfs, st_blksize 131072",
		"| 64K | 8316 (27.7 ms; CPU 27.7 ms) | 16632 (13.8 ms; CPU 13.8 ms) |",
		"| peer=head | `head -n 290955 < input > /dev/null` |",
		"| policy=blksize | `getdelim --loop --policy blksize -n 290955 < input > /dev/null` |",
		"| peer=cat | `cat input > /dev/null` |",
		`- peer go-bufio: left out: no \| pipe`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	checkTables(t, md)
}

// checkTables checks that every row of every Markdown table has as many
// cells as its header.
func checkTables(t *testing.T, md string) {
	t.Helper()
	cells := func(line string) int {
		return strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
	}
	want := 0
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			want = 0
			continue
		}
		if want == 0 {
			want = cells(line)
			continue
		}
		if got := cells(line); got != want {
			t.Errorf("results.md line %d has %d cells, its table %d: %q", i+1, got, want, line)
		}
	}
}

func TestRSSName(t *testing.T) {
	for _, tc := range []struct {
		n, floor int64
		want     string
	}{
		{0, 6 << 20, "–"},
		{5 << 20, 6 << 20, "≤ 6.0 MiB"},
		{6 << 20, 6 << 20, "≤ 6.0 MiB"},
		{12 << 20, 6 << 20, "12.0 MiB"},
		{3 << 20, 0, "3.0 MiB"},
	} {
		if got := rssName(tc.n, tc.floor); got != tc.want {
			t.Errorf("rssName(%d, %d) = %q, want %q", tc.n, tc.floor, got, tc.want)
		}
	}
}

// rulesFixture returns results for the table of the world's rules: three
// policies on both paths and the C loop on two file systems, one run each,
// with the counts getdelim and strace give.
func rulesFixture(t *testing.T) *results {
	t.Helper()
	tl := &tools{getdelim: "/x/getdelim", cloop: "/x/getdelim_loop", missing: map[string]string{}}
	o := &options{paths: pathNames, policies: []string{"blksize", "bufio", "readahead"}, peers: []string{"c-default"}}
	figs, notes := planFigures(o, tl)
	if len(notes) != 0 || len(figs) != 7 {
		t.Fatalf("planFigures: %d figures, notes %q", len(figs), notes)
	}
	targets := []*target{
		{Name: "ext4-1k", FSType: "ext4", Blksize: 1024},
		{Name: "xfs128k", FSType: "xfs", Blksize: 131072},
	}
	ms := map[string]float64{
		"policy=blksize": 160, "policy=bufio": 100, "policy=readahead": 150,
		"path=copy/policy=blksize": 55, "path=copy/policy=bufio": 50, "path=copy/policy=readahead": 40,
		"peer=c-default": 80,
	}
	var jobs []*job
	for ti, tg := range targets {
		in := []int{1024, 131072}[ti]
		for _, f := range figs {
			j := &job{fig: f, tgt: tg}
			if f.getdelim {
				size := in
				if f.Policy == "bufio" {
					size = 4096
				}
				j.counts = &counts{Reads: 230000000 / int64(size),
					In: &streamstats.Stream{Size: size}, Out: &streamstats.Stream{Size: 4096}}
				if f.Policy == "readahead" && ti == 1 {
					j.counts.In.Ahead = 1700
				}
			} else {
				j.counts = &counts{Reads: 224750, ReadSize: 1024, WriteSize: 4096}
			}
			// CPU time: half the wall time and 10 ms more, so that
			// its ratios differ from the wall time's.
			wall := time.Duration(ms[f.Key] * 1e6 / float64(ti+1))
			smp := sample{Wall: wall, User: wall / 2, Sys: 10 * time.Millisecond / time.Duration(ti+1)}
			j.samples = []sample{smp}
			j.runs = []runRecord{{Bench: j.bench(), Round: 1, Wall: smp.Wall}}
			jobs = append(jobs, j)
		}
	}
	r := &results{Input: inputInfo{Bytes: 230140805, Lines: 290955}, Targets: targets}
	r.fill(jobs, r.Input.Bytes)
	return r
}

// TestFillRules: each policy's time is set against bufio's on the same
// path and the C loop's, and its buffers are counted, read-ahead's ring
// included when it read ahead.
func TestFillRules(t *testing.T) {
	r := rulesFixture(t)
	type row struct {
		Bench              string
		VsBufio, VsC       float64
		CPUVsBufio, CPUVsC float64
		Buffers            int64
	}
	round := func(x *float64) float64 {
		if x == nil {
			return -1
		}
		return math.Round(*x*100) / 100
	}
	var got []row
	for _, f := range r.Figures {
		got = append(got, row{f.Bench, round(f.VsBufio), round(f.VsC), round(f.CPUVsBufio), round(f.CPUVsC), f.Buffers})
	}
	// The wall times are the fixture's, halved on xfs128k; the CPU
	// times half the wall times and 10 ms more (5 ms on xfs128k).
	want := []row{
		{"BenchmarkHead/policy=blksize/fs=ext4-1k", 1.6, 2, 1.5, 1.8, 1024 + 4096},
		{"BenchmarkHead/policy=bufio/fs=ext4-1k", 1, 1.25, 1, 1.2, 8192},
		{"BenchmarkHead/policy=readahead/fs=ext4-1k", 1.5, 1.88, 1.42, 1.7, 1024 + 4096},
		{"BenchmarkHead/path=copy/policy=blksize/fs=ext4-1k", 1.1, 0.69, 1.07, 0.75, 1024 + 4096},
		{"BenchmarkHead/path=copy/policy=bufio/fs=ext4-1k", 1, 0.63, 1, 0.7, 8192},
		{"BenchmarkHead/path=copy/policy=readahead/fs=ext4-1k", 0.8, 0.5, 0.86, 0.6, 1024 + 4096},
		{"BenchmarkHead/peer=c-default/fs=ext4-1k", 0.8, 1, 0.83, 1, 1024 + 4096},
		{"BenchmarkHead/policy=blksize/fs=xfs128k", 1.6, 2, 1.5, 1.8, 131072 + 4096},
		{"BenchmarkHead/policy=bufio/fs=xfs128k", 1, 1.25, 1, 1.2, 8192},
		{"BenchmarkHead/policy=readahead/fs=xfs128k", 1.5, 1.88, 1.42, 1.7, 5*131072 + 4096},
		{"BenchmarkHead/path=copy/policy=blksize/fs=xfs128k", 1.1, 0.69, 1.07, 0.75, 131072 + 4096},
		{"BenchmarkHead/path=copy/policy=bufio/fs=xfs128k", 1, 0.63, 1, 0.7, 8192},
		{"BenchmarkHead/path=copy/policy=readahead/fs=xfs128k", 0.8, 0.5, 0.86, 0.6, 5*131072 + 4096},
		{"BenchmarkHead/peer=c-default/fs=xfs128k", 0.8, 1, 0.83, 1, 1024 + 4096},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteRules(t *testing.T) {
	r := rulesFixture(t)
	var buf bytes.Buffer
	if err := r.writeMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"## The world's buffering rules",
		"| figure | rule | ext4-1k (st_blksize 1024) | xfs128k (st_blksize 131072) |",
		"| `getdelim --loop`, blksize | the default, the glibc proposal's: min(st_blksize, 128 KiB), at least 4 KiB | **160 ms**<br>1.60x bufio, 2.00x C<br>CPU 1.50x bufio, 1.80x C<br>224609 reads, 5.0 KiB | **80.0 ms**<br>1.60x bufio, 2.00x C<br>CPU 1.50x bufio, 1.80x C<br>1754 reads, 132.0 KiB |",
		"| `getdelim -n`, readahead | blksize, and 4 more input buffers read ahead by a goroutine | **40.0 ms**<br>0.80x bufio, 0.50x C<br>CPU 0.86x bufio, 0.60x C<br>224609 reads, 5.0 KiB | **20.0 ms**<br>0.80x bufio, 0.50x C<br>CPU 0.86x bufio, 0.60x C<br>1754 reads, 644.0 KiB |",
		"| C getdelim/fwrite loop, glibc default | C on glibc today: min(st_blksize, 8 KiB) | **80.0 ms**<br>0.80x bufio, 1.00x C<br>CPU 0.83x bufio, 1.00x C<br>224750 reads, 5.0 KiB |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	if strings.Contains(md, "coreutils") {
		t.Error("results.md has a row for a policy that did not run")
	}
	checkTables(t, md)

	var svg bytes.Buffer
	if err := r.writeRulesSVG(&svg); err != nil {
		t.Fatal(err)
	}
	// Two panels: 4 bars (3 policies, the C loop) and 3 bars, on 2 file
	// systems; a legend entry per bar of a group.
	st := svgStats(t, svg.Bytes())
	if st["rect.bar"] != 14 || st["rect.legend"] != 7 {
		t.Errorf("rules chart: %d bars and %d legend entries, want 14 and 7", st["rect.bar"], st["rect.legend"])
	}
	var empty bytes.Buffer
	if err := (&results{}).writeRulesSVG(&empty); err != nil {
		t.Fatal(err)
	}
	svgStats(t, empty.Bytes())
}
