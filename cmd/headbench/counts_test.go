//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/streamstats"
)

const statsJSON = `{"in":[{"fd":0,"mode":"full","size":131072,"policy":"blksize","blksize":131072,"reads":1758,"writes":0,"kernel":2,"reason":"st_blksize 131072"}],` +
	`"out":{"fd":1,"mode":"full","size":4096,"policy":"blksize","blksize":4096,"reads":0,"writes":56228,"kernel":0,"reason":"st_blksize 4096"}}` + "\n"

func TestParseGetdelimStats(t *testing.T) {
	in := &streamstats.Stream{Fd: 0, Mode: "full", Size: 131072, Policy: "blksize", Blksize: 131072, Reads: 1758, Kernel: 2, Reason: "st_blksize 131072"}
	out := &streamstats.Stream{Fd: 1, Mode: "full", Size: 4096, Policy: "blksize", Blksize: 4096, Writes: 56228, Reason: "st_blksize 4096"}
	want := counts{Source: "getdelim --stats=json", Reads: 1758, Writes: 56228, Kernel: 2, In: in, Out: out}
	for _, tc := range []struct{ name, stderr string }{
		{"alone", statsJSON},
		{"after a warning, no final newline", "getdelim: warning: something\n" + strings.TrimSuffix(statsJSON, "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseGetdelimStats(tc.stderr)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseGetdelimStatsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, stderr, want string
	}{
		{"nothing", "", "getdelim --stats=json: unexpected end of JSON input"},
		{"the text form", "getdelim: stats: in: fd=0 mode=full\n", "getdelim --stats=json: invalid character"},
		{"a message after it", statsJSON + "getdelim: error\n", "getdelim --stats=json: invalid character"},
		{"two inputs", `{"in":[{},{}],"out":{}}`, "getdelim --stats=json: 2 input streams, want 1"},
		{"no input", `{"in":[],"out":{}}`, "getdelim --stats=json: 0 input streams, want 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseGetdelimStats(tc.stderr)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v, want one starting %q", err, tc.want)
			}
		})
	}
}

const straceSample = `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 32.47    0.000125           5        21           mmap
 30.65    0.000118           3        33        16 openat
  6.23    0.000024           4     28116           read
  5.45    0.000021           4     56230           write
  1.04    0.000004           4         1         1 ioctl
  0.10    0.000001           1         3           readv
  0.00    0.000000           0         2           pread64
  0.00    0.000000           0         5           splice
  0.00    0.000000           0         4         1 copy_file_range
------ ----------- ----------- --------- --------- ----------------
100.00    0.000385           3     84415        18 total
`

func TestParseStraceSummary(t *testing.T) {
	got, err := parseStraceSummary(straceSample)
	if err != nil {
		t.Fatal(err)
	}
	want := counts{Source: "strace -c -f", Reads: 28119, Writes: 56230, Kernel: 9}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseStraceSummaryErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no summary table"},
		{"no total", strings.Split(straceSample, "------ ----------- ----------- --------- --------- ----------------\n100")[0], "no summary table"},
		{"bad calls", strings.Replace(straceSample, "28116", "many", 1), "bad calls column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseStraceSummary(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
