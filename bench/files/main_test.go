//go:build linux

package main

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// straceTable is what strace -f -c -o FILE writes: an errors column on
// some lines only.
const straceTable = `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 79.15    0.001048          29        35        17 openat
 12.46    0.000165          33         5           read
  8.38    0.000111          22         5           write
  0.00    0.000000           0         2           pread64
------ ----------- ----------- --------- --------- ----------------
100.00    0.001324          28        47        17 total
`

func TestParseStraceCounts(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    map[string]int64
		wantErr string
	}{
		{"table", straceTable, map[string]int64{"openat": 35, "read": 5, "write": 5, "pread64": 2}, ""},
		{"noise around it", "strace: Process 7 attached\n" + straceTable + "strace: Process 7 detached\n", map[string]int64{"openat": 35, "read": 5, "write": 5, "pread64": 2}, ""},
		{"no calls", "% time     seconds  usecs/call     calls    errors syscall\n------ ----------- ----------- --------- --------- ----------------\n------ ----------- ----------- --------- --------- ----------------\n100.00    0.000000           0         0           total\n", map[string]int64{}, ""},
		{"empty", "", nil, "no table"},
		{"not a table", "strace: exec: No such file or directory\n", nil, "no table"},
		{"bad count", "----\n 1.0 0.1 2 many read\n----\n", nil, "calls of line"},
		{"bad line", "----\n 1.0 0.1 read\n----\n", nil, "unexpected line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStraceCounts(tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2, 2, 9, 1, 2}, 2},
	}
	for _, tt := range tests {
		if got := median(tt.xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

// timed returns a timed run of cpu milliseconds, all of it user time.
func timed(round int, idiom, variant string, cpuMs float64) runRecord {
	d := time.Duration(cpuMs * float64(time.Millisecond))
	return runRecord{round: round, idiom: idiom, varnt: variant, records: 1000, wall: 2 * d, user: d, calls: -1}
}

// counted returns the strace runs of a pair: calls on n records and on
// none.
func counted(idiom, variant string, n, calls, empty int64) []runRecord {
	return []runRecord{
		{idiom: idiom, varnt: variant, records: n, calls: calls},
		{idiom: idiom, varnt: variant, records: 0, calls: empty},
	}
}

// sampleRuns are the runs of a small matrix: fprintf in three variants,
// gob without C.
func sampleRuns() []runRecord {
	var runs []runRecord
	runs = append(runs, counted("fprintf", "plain", 1000, 1004, 4)...)
	runs = append(runs, counted("fprintf", "bufio", 1000, 7, 5)...)
	runs = append(runs, counted("fprintf", "c", 1000, 5, 3)...)
	runs = append(runs, counted("gob", "plain", 1000, 1005, 5)...)
	for round, ms := range [][4]float64{{210, 14, 10, 50}, {190, 15, 11, 40}, {250, 13, 9, 45}} {
		runs = append(runs,
			timed(round+1, "fprintf", "plain", ms[0]),
			timed(round+1, "fprintf", "bufio", ms[1]),
			timed(round+1, "fprintf", "c", ms[2]),
			timed(round+1, "gob", "plain", ms[3]))
	}
	return runs
}

func TestSummarize(t *testing.T) {
	got := summarize(sampleRuns())
	want := map[key]*cell{
		{"fprintf", "plain"}: {cpu: 0.21, wall: 0.42, cpuMin: 0.19, cpuMax: 0.25, runs: 3, records: 1000, calls: 1004, callsEmpty: 4, straceRecords: 1000, callsPerRecord: 1, hasCalls: true, hasTimes: true},
		{"fprintf", "bufio"}: {cpu: 0.014, wall: 0.028, cpuMin: 0.013, cpuMax: 0.015, runs: 3, records: 1000, calls: 7, callsEmpty: 5, straceRecords: 1000, callsPerRecord: 0.002, hasCalls: true, hasTimes: true},
		{"fprintf", "c"}:     {cpu: 0.010, wall: 0.020, cpuMin: 0.009, cpuMax: 0.011, runs: 3, records: 1000, calls: 5, callsEmpty: 3, straceRecords: 1000, callsPerRecord: 0.002, hasCalls: true, hasTimes: true},
		{"gob", "plain"}:     {cpu: 0.045, wall: 0.090, cpuMin: 0.040, cpuMax: 0.050, runs: 3, records: 1000, calls: 1005, callsEmpty: 5, straceRecords: 1000, callsPerRecord: 1, hasCalls: true, hasTimes: true},
	}
	approx := cmp.Comparer(func(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 })
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(cell{}), approx); diff != "" {
		t.Errorf("summarize (-want +got):\n%s", diff)
	}
}

func TestFormats(t *testing.T) {
	c := func(cpu float64) *cell { return &cell{cpu: cpu, hasTimes: true} }
	perRec := func(x float64) *cell { return &cell{callsPerRecord: x, hasCalls: true} }
	got := []string{
		ratio(c(2.1), c(0.1)), ratio(c(19.5), c(0.1)), ratio(c(0.144), c(0.1)), ratio(c(1), nil), ratio(nil, c(1)), ratio(c(1), c(0)),
		perRecord(perRec(6.8912)), perRecord(perRec(1.0004)), perRecord(perRec(0.0017241)), perRecord(perRec(0.000244)), perRecord(perRec(0)), perRecord(nil), perRecord(&cell{}),
	}
	want := []string{
		"21.0x", "195x", "1.44x", "–", "–", "–",
		"6.89", "1.00", "0.0017", "0.00024", "0", "–", "–",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("formats (-want +got):\n%s", diff)
	}
}

func TestWriteMarkdown(t *testing.T) {
	variants, err := pick("plain,bufio,c", variantTable, func(v variant) string { return v.name })
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pick("fprintf,gob", idioms, func(id idiom) string { return id.name })
	if err != nil {
		t.Fatal(err)
	}
	m := machine{cpu: "Test CPU", cores: 2, kernel: "6.18", goVersion: "go1.26.8", cc: "cc 12", fs: "ext4",
		started: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), load0: []string{"1.00", "2.00", "3.00"}, load1: []string{"4.00", "5.00", "6.00"},
		command: "go run ./bench/files -rounds 3", records: 1000, straceRecords: 1000, rounds: 3}
	var b strings.Builder
	writeMarkdown(&b, m, variants, ids, summarize(sampleRuns()))
	out := b.String()
	for _, want := range []string{
		"- date: 2026-01-02 03:04 UTC\n",
		"- machine: Test CPU, 2 CPUs, Linux 6.18; go1.26.8; cc 12\n",
		"- load average (1, 5, 15 min): 1.00 2.00 3.00 before, 4.00 5.00 6.00 after\n",
		"- command: `go run ./bench/files -rounds 3`\n",
		"- warning: the 1-minute load average reached 4.00 on 2 CPUs",
		"| idiom | calls per record, plain / bufio / c | plain CPU / C | bufio CPU / C | bufio CPU / plain | -files target, CPU |\n|---|---|---|---|---|---|\n",
		"| fmt.Fprintf loop to a file from os.Create | 1.00 / 0.002 / 0.002 | 21.0x | 1.40x | 0.07x | ≤ 2.0x C |\n",
		"| gob Encoder, Encode per record to a file | 1.00 / – / – | – | – | – | – |\n",
		"| fprintf | c | line (1000, 1000) | 10.0 (9.0–11.0) | 20.0 | 5 / 3 | 0.002 |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("results.md lacks %q; it is:\n%s", want, out)
		}
	}
}

func TestTimes(t *testing.T) {
	got := map[string]int{}
	for _, id := range idioms {
		got[id.name] = id.times(100)
	}
	want := map[string]int{"fprintf": 100, "log": 100, "scan-file": 100, "scan-pipe": 100, "fscan": 100, "binread": 100,
		"bytereads": 100, "gob": 100, "json": 100, "bufiofiles": 1000, "blocks": 5000}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records asked for 100 (-want +got):\n%s", diff)
	}
}

func TestBusyLoad(t *testing.T) {
	tests := []struct {
		load0, load1 []string
		busy         bool
	}{
		{[]string{"0.50"}, []string{"1.90"}, false},
		{[]string{"2.00"}, []string{"2.00"}, false},
		{[]string{"2.01"}, []string{"1.00"}, true},
		{nil, []string{"14.6"}, true},
		{[]string{"?"}, nil, false},
	}
	for _, tt := range tests {
		got := busyLoad(machine{cores: 2, load0: tt.load0, load1: tt.load1})
		if (got != "") != tt.busy {
			t.Errorf("busyLoad(%v, %v) = %q, want busy %v", tt.load0, tt.load1, got, tt.busy)
		}
	}
}

func TestWriteTSV(t *testing.T) {
	var b strings.Builder
	writeTSV(&b, append(counted("fprintf", "c", 1000, 5, 3)[:1], timed(2, "fprintf", "c", 10)))
	want := "kind\tround\tidiom\tvariant\trecords\twall_s\tuser_s\tsys_s\tcpu_s\tcalls\n" +
		"strace\t0\tfprintf\tc\t1000\t0.0000\t0.0000\t0.0000\t0.0000\t5\n" +
		"timed\t2\tfprintf\tc\t1000\t0.0200\t0.0100\t0.0000\t0.0100\t\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("runs.tsv (-want +got):\n%s", diff)
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args         []string
		wantVariants string
		wantIdioms   string
		wantErr      string
	}{
		{nil, "plain,bufio,stdout,files,c", "fprintf,log,scan-file,scan-pipe,fscan,binread,bytereads,gob,json,bufiofiles,blocks", ""},
		{[]string{"-variants", "c, plain", "-idioms", "gob"}, "c,plain", "gob", ""},
		{[]string{"-variants", "plain,fopen"}, "", "", `-variants: unknown name "fopen" (known: plain, bufio, stdout, c, files, shim)`},
		{[]string{"-variants", "c,c"}, "", "", `-variants: "c" named twice`},
		{[]string{"-idioms", ","}, "", "", "-idioms: names nothing"},
		{[]string{"-rounds", "0"}, "", "", "must be at least 1"},
		{[]string{"-records", "x"}, "", "", "invalid value"},
		{[]string{"extra"}, "", "", `unexpected argument "extra"`},
		{[]string{"-funcalign", "64"}, "plain,bufio,stdout,files,c", "fprintf,log,scan-file,scan-pipe,fscan,binread,bytereads,gob,json,bufiofiles,blocks", ""},
		{[]string{"-funcalign", "48"}, "", "", "-funcalign must be 0 or a power of two from 16 to 4096 (have 48)"},
		{[]string{"-funcalign", "8"}, "", "", "(have 8)"},
	}
	for _, tt := range tests {
		cfg, err := parseFlags(tt.args, io.Discard)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseFlags(%q): error %v, want one containing %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseFlags(%q): %v", tt.args, err)
			continue
		}
		var vs, ids []string
		for _, v := range cfg.variants {
			vs = append(vs, v.name)
		}
		for _, id := range cfg.idioms {
			ids = append(ids, id.name)
		}
		if diff := cmp.Diff([]string{tt.wantVariants, tt.wantIdioms}, []string{strings.Join(vs, ","), strings.Join(ids, ",")}); diff != "" {
			t.Errorf("parseFlags(%q) (-want +got):\n%s", tt.args, diff)
		}
	}
}

// TestVariantLine checks that a variant is one line of the table: a new
// build command fills in its placeholders and gets the jobs of its source.
func TestVariantLine(t *testing.T) {
	files := variant{name: "files", src: "plain", build: "{stdiobuf} build -files {goflags} -o {out} ./{src}"}
	for _, tt := range []struct {
		funcAlign int
		want      []string
	}{
		{0, []string{"/w/bin/stdiobuf", "build", "-files", "-o", "/w/bin/files-fprintf", "./bench/files/plain/fprintf"}},
		{64, []string{"/w/bin/stdiobuf", "build", "-files", "-ldflags=-funcalign=64", "-o", "/w/bin/files-fprintf", "./bench/files/plain/fprintf"}},
	} {
		got := buildCommand(files, "fprintf", "/w/bin/files-fprintf", "/w/bin/stdiobuf", tt.funcAlign)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("buildCommand with -funcalign %d (-want +got):\n%s", tt.funcAlign, diff)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	stdout := variantTable[2]
	cfg := &config{variants: []variant{files, variantTable[1], stdout, variantTable[3]}, idioms: idioms}
	var names []string
	for _, j := range jobs(root, cfg) {
		names = append(names, j.id.name+"/"+j.v.name)
	}
	wantJobs := []string{
		"fprintf/files", "fprintf/bufio", "fprintf/c",
		"log/files", "log/bufio", "log/c",
		"scan-file/files", "scan-file/bufio", "scan-file/stdout", "scan-file/c",
		"scan-pipe/files", "scan-pipe/bufio", "scan-pipe/stdout", "scan-pipe/c",
		"fscan/files", "fscan/bufio", "fscan/stdout", "fscan/c",
		"binread/files", "binread/bufio", "binread/stdout", "binread/c",
		"bytereads/files", "bytereads/bufio", "bytereads/stdout", "bytereads/c",
		"gob/files", "gob/bufio",
		"json/files", "json/bufio", "json/c",
		"bufiofiles/files", "bufiofiles/stdout", "bufiofiles/c",
		"blocks/files", "blocks/stdout", "blocks/c",
	}
	if diff := cmp.Diff(wantJobs, names); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
}

func TestCheckOutput(t *testing.T) {
	logIdiom := idioms[1]
	want := []byte("2006/01/02 15:04:05 record 0 of 2\n2006/01/02 15:04:05 record 1 of 2\n")
	if err := checkOutput(logIdiom, "", want, "", []byte("2026/12/02 06:50:59 record 0 of 2\n2026/12/02 06:51:00 record 1 of 2\n")); err != nil {
		t.Errorf("log lines with other times: %v", err)
	}
	if err := checkOutput(logIdiom, "", want, "", []byte("2026/12/02 06:50:59 record 0 of 2\n2026/12/02 06:51:00 record 2 of 2\n")); err == nil || !strings.Contains(err.Error(), "first difference at byte 61") {
		t.Errorf("log line changed: error %v, want the first difference at byte 61", err)
	}
	if err := checkOutput(idioms[2], "10 55\n", nil, "10 54\n", nil); err == nil || !strings.Contains(err.Error(), `printed "10 54\n", want "10 55\n"`) {
		t.Errorf("scan's sum off by one: error %v", err)
	}
}

// TestPrograms builds every program of plain/, bufio/ and c/ and runs it
// once on a small dataset through runOnce, which checks its output
// against want: the programs and the harness agree on what each idiom
// makes.
func TestPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 27 programs")
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("needs cc for the C peers:", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	work := t.TempDir()
	cfg := &config{variants: []variant{variantTable[0], variantTable[1], variantTable[3]}, idioms: idioms}
	all := jobs(root, cfg)
	ctx := context.Background()
	if err := buildAll(ctx, root, work, all, 0); err != nil {
		t.Fatal(err)
	}
	d, err := makeDataset(work, 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range all {
		r, err := runOnce(ctx, j, d, filepath.Join(work, "out"), "")
		if err != nil {
			t.Errorf("%s/%s: %v", j.id.name, j.v.name, err)
			continue
		}
		if want := d.records(j.id); r.records != want {
			t.Errorf("%s/%s: %d records, want %d", j.id.name, j.v.name, r.records, want)
		}
	}
}
