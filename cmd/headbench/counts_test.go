//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const statsIn = `getdelim: stats: in: fd=0 mode=full size=131072 policy=blksize blksize=131072 reads=1758 writes=0 kernel=0 reason="st_blksize 131072"`
const statsOut = `getdelim: stats: out: fd=1 mode=full size=4096 policy=blksize blksize=4096 reads=0 writes=56228 kernel=0 reason="st_blksize 4096"`

func TestParseGetdelimStats(t *testing.T) {
	in := &streamStats{Fd: 0, Mode: "full", Size: 131072, Policy: "blksize", Blksize: 131072, Reads: 1758, Reason: "st_blksize 131072"}
	out := &streamStats{Fd: 1, Mode: "full", Size: 4096, Policy: "blksize", Blksize: 4096, Writes: 56228, Reason: "st_blksize 4096"}
	for _, tc := range []struct {
		name   string
		stderr string
		want   counts
	}{
		{"the documented lines", statsIn + "\n" + statsOut + "\n",
			counts{Source: "getdelim --stats", Reads: 1758, Writes: 56228, In: in, Out: out}},
		{"other lines, out first, no final newline", "warming up\n" + statsOut + "\nnoise: x=1\nnot a: stats: line\n" + statsIn,
			counts{Source: "getdelim --stats", Reads: 1758, Writes: 56228, In: in, Out: out}},
		{"another program name", strings.ReplaceAll(statsIn+"\n"+statsOut, "getdelim:", "/tmp/x/gd:"),
			counts{Source: "getdelim --stats", Reads: 1758, Writes: 56228, In: in, Out: out}},
		{"extra fields and escapes",
			`getdelim: stats: in: fd=0 newfield=7 mode=full size=8192 policy=bufsiz blksize=131072 reads=28114 writes=0 kernel=2 reason="min(st_blksize, 8192) \"bufsiz\"" more="a b"` + "\n" +
				`getdelim: stats: out: fd=1 mode=line size=1024 policy=blksize blksize=1024 reads=0 writes=9 kernel=0 reason=terminal`,
			counts{Source: "getdelim --stats", Reads: 28114, Writes: 9, Kernel: 2,
				In:  &streamStats{Mode: "full", Size: 8192, Policy: "bufsiz", Blksize: 131072, Reads: 28114, Kernel: 2, Reason: `min(st_blksize, 8192) "bufsiz"`},
				Out: &streamStats{Fd: 1, Mode: "line", Size: 1024, Policy: "blksize", Blksize: 1024, Writes: 9, Reason: "terminal"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseGetdelimStats(tc.stderr)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseGetdelimStatsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, stderr, want string
	}{
		{"no lines", "getdelim: error\n", "want an in and an out line"},
		{"only in", statsIn, "want an in and an out line"},
		{"bad number", strings.Replace(statsIn, "reads=1758", "reads=lots", 1) + "\n" + statsOut, "reads=lots is not an integer"},
		{"not key=value", "getdelim: stats: in: fd=0 junk\n" + statsOut, `field "junk" is not key=value`},
		{"open quote", `getdelim: stats: in: fd=0 reason="st_blksize` + "\n" + statsOut, "bad quoted value of reason"},
		{"no stream", "getdelim: stats: fd=0\n", "no stream name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseGetdelimStats(tc.stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
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
