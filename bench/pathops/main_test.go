//go:build linux

package main

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// straceTable is what strace -f -c -U name,calls -o FILE writes.
const straceTable = `syscall            calls
------------------ --------
openat                  35
write                    5
writev                   2
pwrite64                 1
read                     5
tee                      3
------------------ --------
total                   51
`

func TestParseCounts(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]int
	}{
		{"table", straceTable, map[string]int{"openat": 35, "write": 5, "writev": 2, "pwrite64": 1, "read": 5, "tee": 3}},
		{"noise around it", "strace: Process 7 attached\n" + straceTable + "strace: Process 7 detached\n", map[string]int{"openat": 35, "write": 5, "writev": 2, "pwrite64": 1, "read": 5, "tee": 3}},
		{"empty", "", map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseCounts(tt.text)); diff != "" {
				t.Errorf("parseCounts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWritesAndTotal(t *testing.T) {
	m := parseCounts(straceTable)
	if got := writes(m); got != 8 {
		t.Errorf("writes = %d, want 8 (write + writev + pwrite64)", got)
	}
	want := 0
	for _, c := range fileCalls {
		want += m[c]
	}
	if got := total(m); got != want || got == 0 {
		t.Errorf("total = %d, want %d, the file calls of the table", got, want)
	}
}

// TestFewestCalls: the run with the fewest calls on files is taken
// whole, whatever order the runs came in; straceRuns gives a program
// reading a pipe three runs, the rest one.
func TestFewestCalls(t *testing.T) {
	a := map[string]int{"read": 632, "write": 1}
	b := map[string]int{"read": 629, "write": 1, "fstat": 1}
	c := map[string]int{"read": 631, "write": 1}
	for _, ms := range [][]map[string]int{{a, b, c}, {c, a, b}, {b, c, a}} {
		if diff := cmp.Diff(b, fewestCalls(ms)); diff != "" {
			t.Errorf("fewestCalls (-want +got):\n%s", diff)
		}
	}
	if got := fewestCalls(nil); got != nil {
		t.Errorf("fewestCalls(nil) = %v, want nil", got)
	}
	pipe := program{stdin: func() io.Reader { return strings.NewReader("") }}
	if got := []int{straceRuns(pipe), straceRuns(program{})}; !cmp.Equal(got, []int{3, 1}) {
		t.Errorf("straceRuns of a pipe reader and of another program: %v, want [3 1]", got)
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
	}
	for _, tt := range tests {
		xs := append([]float64(nil), tt.xs...)
		if got := median(xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
		if diff := cmp.Diff(tt.xs, xs); diff != "" {
			t.Errorf("median changed its argument (-before +after):\n%s", diff)
		}
	}
}

func TestRoundRatio(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want float64
	}{
		{"none", nil, nil, 0},
		// Rounds in two bands, each pair in the same one.
		{"bands", []float64{110, 77, 108, 76, 79}, []float64{100, 70, 100, 75, 75}, 1.08},
		{"zero reference left out", []float64{2, 3, 4}, []float64{0, 3, 2}, 1.5},
		{"shorter b", []float64{2, 4, 9}, []float64{1, 2}, 2},
	}
	for _, tt := range tests {
		if got := median(roundRatios(tt.a, tt.b)); got != tt.want {
			t.Errorf("%s: median(roundRatios(%v, %v)) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMedianInterval(t *testing.T) {
	seq := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[n-1-i] = float64(i + 1) // in reverse: the ranks, not the order, count
		}
		return xs
	}
	tests := []struct {
		name   string
		xs     []float64
		lo, hi float64
	}{
		{"none", nil, 0, 0},
		{"too few for an interval", []float64{3, 1, 2, 5, 4}, 1, 5},
		// n = 6: P(X <= 0) = 1/64 <= 2.5%, P(X <= 1) = 7/64 > 2.5%.
		{"six", seq(6), 1, 6},
		// n = 21: P(X <= 5) = 1.3%, P(X <= 6) = 3.9%: ranks 6 and 16.
		{"twenty-one", seq(21), 6, 16},
		// n = 105: P(X <= 41) = 1.6%, P(X <= 42) = 2.52%: ranks 42 and 64.
		{"a hundred and five", seq(105), 42, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := medianInterval(tt.xs)
			if diff := cmp.Diff([2]float64{tt.lo, tt.hi}, [2]float64{lo, hi}); diff != "" {
				t.Errorf("medianInterval (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTarget(t *testing.T) {
	rep := func(v float64, n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = v
		}
		return xs
	}
	tests := []struct {
		name string
		rs   []float64
		want string
	}{
		{"median within", append(rep(1.0, 11), rep(1.2, 10)...), "met"},
		{"every round beyond", rep(1.1, 21), "**missed**"},
		{"median beyond, interval holds the limit", append(rep(1.0, 8), rep(1.1, 13)...), "**not shown** (1.05 in the interval)"},
	}
	for _, tt := range tests {
		if got := target(tt.rs, 1.05); got != tt.want {
			t.Errorf("%s: target = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestRoundsFor(t *testing.T) {
	p := program{name: "p", hasBufio: true}
	cfg := config{rounds: 21, seconds: 3}
	tests := []struct {
		name    string
		slowest float64 // the first round's slowest variant, ms
		want    int
	}{
		{"long", 2500, 21},
		{"budget met by the rounds asked for", 3000.0 / 21, 21},
		{"short: more rounds", 60, 50},
		{"very short: five times at most", 5, 105},
		{"no time", 0, 21},
	}
	for _, tt := range tests {
		cpu := map[[2]string][]float64{}
		for _, v := range p.variants() {
			cpu[[2]string{"p", v}] = []float64{tt.slowest / 2}
		}
		cpu[[2]string{"p", "files"}] = []float64{tt.slowest}
		if got := roundsFor(cfg, p, cpu); got != tt.want {
			t.Errorf("%s: roundsFor = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestBuildSteps checks the links of the Go variants: once each in the
// linker's own order, or once a layout, each with a seed of its own.
func TestBuildSteps(t *testing.T) {
	tests := []struct {
		layouts int
		want    map[string][]string // a binary's key: the flags of its command before -o
	}{
		{1, map[string][]string{
			"plain/0":  {"go", "build"},
			"stdout/0": {"T/stdiobuf", "build", "-stdout"},
			"files/0":  {"T/stdiobuf", "build", "-files"},
			"c-walker": {"cc", "-O2"},
		}},
		{2, map[string][]string{
			"plain/0":  {"go", "build", "-ldflags=-randlayout=1"},
			"plain/1":  {"go", "build", "-ldflags=-randlayout=2"},
			"stdout/0": {"T/stdiobuf", "build", "-stdout", "-ldflags=-randlayout=1"},
			"stdout/1": {"T/stdiobuf", "build", "-stdout", "-ldflags=-randlayout=2"},
			"files/0":  {"T/stdiobuf", "build", "-files", "-ldflags=-randlayout=1"},
			"files/1":  {"T/stdiobuf", "build", "-files", "-ldflags=-randlayout=2"},
			"c-walker": {"cc", "-O2"},
		}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.layouts), func(t *testing.T) {
			bins, steps := buildSteps("T", tt.layouts, []string{"bench/pathops/c/walker.c"})
			if diff := cmp.Diff([]string{"go", "build", "-o", "T/stdiobuf", "./cmd/stdiobuf"}, steps[0]); diff != "" {
				t.Errorf("first step (-want +got):\n%s", diff)
			}
			got := map[string][]string{}
			for _, s := range steps[1:] {
				o := slices.Index(s, "-o")
				if o < 0 || o+1 >= len(s) {
					t.Fatalf("step %q has no -o", s)
				}
				for key, bin := range bins {
					if bin == s[o+1] {
						got[key] = s[:o]
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("steps by binary (-want +got):\n%s", diff)
			}
			if len(bins) != len(tt.want) || len(steps) != len(tt.want)+1 {
				t.Errorf("%d binaries from %d steps, want %d from %d", len(bins), len(steps), len(tt.want), len(tt.want)+1)
			}
		})
	}
}
