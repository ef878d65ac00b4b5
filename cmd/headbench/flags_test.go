//go:build linux

package main

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

func TestParseFlags(t *testing.T) {
	defaults := func() options {
		return options{runs: 11, lines: seedinput.Lines, fs: fsNames, policies: policyNames, sweep: defaultSweep(), peers: peerNames}
	}
	with := func(change func(*options)) options {
		o := defaults()
		change(&o)
		return o
	}
	for _, tc := range []struct {
		args []string
		want options
	}{
		{nil, defaults()},
		{[]string{"--quick"}, with(func(o *options) { o.quick, o.runs, o.lines = true, 5, 29095 })},
		{[]string{"--quick", "--runs", "3"}, with(func(o *options) { o.quick, o.runs, o.lines = true, 3, 29095 })},
		{[]string{"-runs=7", "--out", "d"}, with(func(o *options) { o.runs, o.out = 7, "d" })},
		{[]string{"--input", "f"}, with(func(o *options) { o.input = "f" })},
		{[]string{"--quick", "--lines", "300"}, with(func(o *options) { o.quick, o.runs, o.lines = true, 5, 300 })},
		{[]string{"--no-mount"}, with(func(o *options) { o.fs = []string{"local"} })},
		{[]string{"--no-mount", "--fs", "local"}, with(func(o *options) { o.fs = []string{"local"} })},
		{[]string{"--fs", "xfs1m,local"}, with(func(o *options) { o.fs = []string{"local", "xfs1m"} })},
		{[]string{"--policies", "blksize, bufsiz,blksize"}, with(func(o *options) { o.policies = []string{"bufsiz", "blksize"} })},
		{[]string{"--policies", "none"}, with(func(o *options) { o.policies = nil })},
		{[]string{"--peers", "cat,head"}, with(func(o *options) { o.peers = []string{"head", "cat"} })},
		{[]string{"--peers", "all"}, defaults()},
		{[]string{"--sweep", "1M,4096,64K,4KiB,2k"}, with(func(o *options) { o.sweep = []int64{2048, 4096, 65536, 1 << 20} })},
		{[]string{"--sweep", "none"}, with(func(o *options) { o.sweep = nil })},
		{[]string{"--getdelim", "/bin/g", "--cache", "c"}, with(func(o *options) { o.getdelim, o.cache = "/bin/g", "c" })},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := parseFlags(tc.args)
			if err != nil {
				t.Fatalf("parseFlags: %v", err)
			}
			if diff := cmp.Diff(tc.want, *got, cmp.AllowUnexported(options{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the message
	}{
		{[]string{"--bogus"}, "-bogus"},
		{[]string{"--runs", "0"}, "--runs 0"},
		{[]string{"--runs", "x"}, `invalid value "x" for flag -runs`},
		{[]string{"--runs", "1001"}, "--runs 1001"},
		{[]string{"--lines", "0"}, "--lines 0"},
		{[]string{"--lines", "5", "--input", "f"}, "do not go together"},
		{[]string{"--input", ""}, "--input"},
		{[]string{"--out", ""}, "--out"},
		{[]string{"--fs", "ext4"}, `unknown name "ext4"`},
		{[]string{"--fs", "none"}, "no file system"},
		{[]string{"--no-mount", "--fs", "xfs1m"}, "contradict"},
		{[]string{"--policies", "fast"}, `unknown name "fast"`},
		{[]string{"--peers", "dd"}, `unknown name "dd"`},
		{[]string{"--sweep", "0"}, `bad size "0"`},
		{[]string{"--sweep", "4X"}, `bad size "4X"`},
		{[]string{"--sweep", "2G"}, `bad size "2G"`},
		{[]string{"--sweep", "2048M"}, `bad size "2048M"`},
		{[]string{"--sweep", "99999999999999999M"}, "bad size"},
		{[]string{"--sweep", "1K,,2K"}, `bad size ""`},
		{[]string{"--policies", "none", "--sweep", "none", "--peers", "none"}, "nothing to time"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := parseFlags(tc.args)
			if !errors.Is(err, errUsage) {
				t.Fatalf("parseFlags error = %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("message %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestParseFlagsHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		if _, err := parseFlags([]string{arg}); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("parseFlags(%s) error = %v, want flag.ErrHelp", arg, err)
		}
	}
}

// TestUsageNamesEveryFlag keeps --help in step with the flags.
func TestUsageNamesEveryFlag(t *testing.T) {
	for _, name := range []string{"--quick", "--runs", "--out", "--input", "--lines", "--cache", "--fs", "--no-mount", "--policies", "--sweep", "--peers", "--getdelim", "--help"} {
		if !strings.Contains(usageText, "  "+name+" ") && !strings.Contains(usageText, "  "+name+"\n") {
			t.Errorf("usage text does not document %s", name)
		}
	}
	for _, names := range [][]string{fsNames, policyNames, peerNames} {
		for _, n := range names {
			if !strings.Contains(usageText, n) {
				t.Errorf("usage text does not name %s", n)
			}
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1", 1}, {"4096", 4096}, {"1K", 1024}, {"1k", 1024}, {"64KiB", 65536}, {"64kib", 65536},
		{"1M", 1 << 20}, {"2MiB", 2 << 20}, {"1024M", 1 << 30},
	} {
		got, err := parseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "K", "-1", "0K", "1.5K", "1 K", "1KB", "1G", "1025M"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestRunUsageStatus(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stdout string
		stderr string
	}{
		{[]string{"--help"}, 0, "Usage: headbench", ""},
		{[]string{"--nope"}, 2, "", "flag provided but not defined: -nope"},
		{[]string{"--runs", "-1"}, 2, "", "--runs -1: want 1 to 1000"},
		{[]string{"--sweep", "3Q"}, 2, "", `--sweep: bad size "3Q"`},
	} {
		var stdout, stderr strings.Builder
		status := run(t.Context(), tc.args, &stdout, &stderr)
		if status != tc.status || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, status, clip(stdout.String(), 80), stderr.String(), tc.status, tc.stdout, tc.stderr)
		}
	}
}
