package main

import (
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/shimtools"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args  []string
		tools []string // names; nil with an error
		err   string
	}{
		{nil, []string{"gojq", "grep", "uniq", "wc", "go-junit-report"}, ""},
		{[]string{"-tools", "uniq,gojq"}, []string{"uniq", "gojq"}, ""},
		{[]string{"-tools", "cat"}, nil, `no tool "cat"`},
		{[]string{"-runs", "0"}, nil, "-runs must be at least 1"},
		{[]string{"extra"}, nil, `unexpected argument "extra"`},
		{[]string{"-bogus"}, nil, "flag provided but not defined"},
	}
	for _, tt := range tests {
		o, err := parseFlags(tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseFlags(%q) = %v, want an error containing %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseFlags(%q): %v", tt.args, err)
			continue
		}
		var names []string
		for _, tool := range o.tools {
			names = append(names, tool.Name)
		}
		if d := cmp.Diff(tt.tools, names); d != "" {
			t.Errorf("parseFlags(%q) tools (-want +got):\n%s", tt.args, d)
		}
		if o.runs != 7 || !strings.HasSuffix(o.out, "-shim.md") {
			t.Errorf("parseFlags(%q): runs %d, out %q; want 7 and DATE-shim.md", tt.args, o.runs, o.out)
		}
	}
}

func TestMedian(t *testing.T) {
	ms := func(n ...int) []shimtools.Timing {
		var ts []shimtools.Timing
		for _, v := range n {
			ts = append(ts, shimtools.Timing{Wall: time.Duration(v) * time.Millisecond, User: time.Duration(v)})
		}
		return ts
	}
	tests := []struct {
		in         []shimtools.Timing
		wall       time.Duration
		user       time.Duration
		wantSpread float64
	}{
		{ms(100), 100 * time.Millisecond, 100, 0},
		{ms(300, 100, 200), 200 * time.Millisecond, 200, 1},
		{ms(120, 100, 110, 90, 100), 100 * time.Millisecond, 100, 0.3},
	}
	for _, tt := range tests {
		got, spread := median(tt.in)
		if got.Wall != tt.wall || got.User != tt.user || spread < tt.wantSpread-1e-9 || spread > tt.wantSpread+1e-9 {
			t.Errorf("median(%v) = %v, %v; want wall %v user %v spread %v", tt.in, got, spread, tt.wall, tt.user, tt.wantSpread)
		}
	}
}

func TestCounter(t *testing.T) {
	var c counter
	c.Write([]byte("a\nbc\n"))
	c.Write([]byte("d"))
	if c.bytes != 6 || c.lines != 2 || c.crc != crc32.ChecksumIEEE([]byte("a\nbc\nd")) {
		t.Errorf("counter = %+v, want 6 bytes, 2 lines and the CRC of all", c)
	}
}

func TestTopCalls(t *testing.T) {
	rows := []shimtools.Syscall{
		{Name: "futex", Percent: 60, Seconds: 0.6, Calls: 10},
		{Name: "write", Percent: 30, Seconds: 0.3, Calls: 1000},
		{Name: "read", Percent: 8, Seconds: 0.08, Calls: 50},
		{Name: "openat", Percent: 2, Seconds: 0.02, Calls: 5},
	}
	if got, want := topCalls(rows, 2, "futex"), "write 30% (1000), read 8% (50)"; got != want {
		t.Errorf("topCalls = %q, want %q", got, want)
	}
	if got, want := callShare(rows, "read"), "50 calls, 8%"; got != want {
		t.Errorf("callShare = %q, want %q", got, want)
	}
	if got := callShare(rows, "pread64"); got != "none" {
		t.Errorf("callShare of a missing call = %q", got)
	}
}

// TestRender checks the one-line form and the report's sections on
// made-up results.
func TestRender(t *testing.T) {
	tools := shimtools.Tools()
	uniq, wc := tools[2], tools[3]
	o := options{runs: 1, lines: 100, tools: []shimtools.Tool{uniq, wc}}
	targets := []*target{{name: "xfs", blksize: 131072}, {name: "ext4", blksize: 4096}}
	res := &results{
		times:    map[key][]shimtools.Timing{},
		calls:    map[key]shimtools.Calls{},
		lines:    map[key]int64{},
		profiles: map[key][]shimtools.Syscall{},
	}
	for _, tgt := range targets {
		for _, tool := range o.tools {
			for _, out := range outputs() {
				for _, b := range shimtools.Builds() {
					k := key{tool.Name, tgt.name, out.name, b}
					wall := 2 * time.Second
					reads := 1000
					if b == shimtools.Shim && tgt.name == "xfs" && tool.Name == "uniq" {
						wall, reads = 1500*time.Millisecond, 32
					}
					res.times[k] = []shimtools.Timing{{Wall: wall, User: wall / 4, Sys: wall / 2}}
					res.calls[k] = shimtools.Calls{Reads: reads, Writes: 5000}
					res.lines[k] = 5000
					res.profiles[k] = []shimtools.Syscall{{Name: "write", Percent: 80, Seconds: 0.8, Calls: 100}}
				}
			}
		}
	}
	m := machine{cpus: 2, loadStart: "0.5 0.4 0.3", loadEnd: "3.5 1 1"}
	report := render(o, m, targets, res)
	for _, want := range []string{
		"tool uniq (xfs, /dev/null): 1000 reads -> 32 reads, 2.000 s -> 1.500 s (0.75x)",
		"tool wc (ext4, pipe): 1000 reads -> 1000 reads, 2.000 s -> 2.000 s (1.00x)",
		"**busy**",
		"on ext4, st_blksize is 4096",
		"wc asks for 8192 bytes itself",
		"uniq: of 1.500 s wall, 0.375 s is user CPU and 0.750 s system CPU; it makes 1.00 write(2) calls per output line (5000)",
		"go run ./bench/shimbench -runs 1 -lines 100",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}
