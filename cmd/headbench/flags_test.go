//go:build linux

package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/getopt"
	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

func TestParseFlags(t *testing.T) {
	defaults := func() options {
		return options{runs: 11, lines: seedinput.Lines, fs: defaultFS, fsDefault: true, paths: pathNames,
			policies: policyNames(), sweep: defaultSweep(), peers: peerNames()}
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
		{[]string{"--runs=7", "--out", "d"}, with(func(o *options) { o.runs, o.out = 7, "d" })},
		{[]string{"--ru", "7", "--runs", "8", "--qu"}, with(func(o *options) { o.quick, o.runs, o.lines = true, 8, 29095 })},
		{[]string{"--out=d", "--out", "e"}, with(func(o *options) { o.out = "e" })},
		{[]string{"--input", "f"}, with(func(o *options) { o.input = "f" })},
		{[]string{"--quick", "--lines", "300"}, with(func(o *options) { o.quick, o.runs, o.lines = true, 5, 300 })},
		{[]string{"--no-mount"}, with(func(o *options) { o.fs, o.fsDefault = []string{"local"}, false })},
		{[]string{"--no-mount", "--fs", "local"}, with(func(o *options) { o.fs, o.fsDefault = []string{"local"}, false })},
		{[]string{"--fs", "xfs1m,local,ext4-1k"}, with(func(o *options) { o.fs, o.fsDefault = []string{"local", "ext4-1k", "xfs1m"}, false })},
		{[]string{"--fs", "all"}, with(func(o *options) { o.fs, o.fsDefault = fsNames, false })},
		{[]string{"--paths", "copy"}, with(func(o *options) { o.paths = []string{"copy"} })},
		{[]string{"--paths", "none", "--policies", "none"}, with(func(o *options) { o.paths, o.policies = nil, nil })},
		{[]string{"--policies", "blksize, bufsiz,blksize"}, with(func(o *options) { o.policies = []string{"bufsiz", "blksize"} })},
		{[]string{"--policies", "none"}, with(func(o *options) { o.policies = nil })},
		{[]string{"--peers", "cat,head"}, with(func(o *options) { o.peers = []string{"head", "cat"} })},
		{[]string{"--peers", "all"}, defaults()},
		{[]string{"--sweep", "1M,4096,64K,4KiB,2k"}, with(func(o *options) { o.sweep = []int64{2048, 4096, 65536, 1 << 20} })},
		{[]string{"--sweep", "1G, 1000,1KB"}, with(func(o *options) { o.sweep = []int64{1000, 1 << 30} })},
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
		want string // the message, or with a trailing "*" its start
	}{
		{[]string{"--bogus"}, "unrecognized option '--bogus'"},
		{[]string{"-x"}, "invalid option -- 'x'"},
		{[]string{"-h"}, "invalid option -- 'h'"},
		{[]string{"--quick=yes"}, "option '--quick' doesn't allow an argument"},
		{[]string{"--runs"}, "option '--runs' requires an argument"},
		{[]string{"--p", "none"}, "option '--p' is ambiguous; possibilities: '--paths' '--policies' '--peers'"},
		{[]string{"--runs", "0"}, "--runs '0': want a whole number from 1 to 1000"},
		{[]string{"--runs", "x"}, "--runs 'x': want a whole number from 1 to 1000"},
		{[]string{"--runs", "1001"}, "--runs '1001': want a whole number from 1 to 1000"},
		{[]string{"--lines", "0"}, "--lines '0': want a whole number from 1 to 2147483647"},
		{[]string{"--lines", "5", "--input", "f"}, "--lines and --input do not go together: --input's line count is the file's"},
		{[]string{"--input", ""}, "--input: empty name"},
		{[]string{"--out="}, "--out: empty name"},
		{[]string{"--fs", "zfs"}, "--fs: unknown name 'zfs' (known: local, ext4, ext4-1k, tmpfs, tmpfs-huge, xfs128k, xfs1m, all, none)"},
		{[]string{"--paths", "fast"}, "--paths: unknown name 'fast' (known: loop, copy, all, none)"},
		{[]string{"--paths", "none"}, "--paths is empty: the policies have no path to run on"},
		{[]string{"--fs", "none"}, "--fs: no file system to run on"},
		{[]string{"--no-mount", "--fs", "xfs1m"}, "--no-mount and --fs xfs1m contradict each other"},
		{[]string{"--policies", "fast"}, "--policies: unknown name 'fast'*"},
		{[]string{"--peers", "dd"}, "--peers: unknown name 'dd'*"},
		{[]string{"--sweep", "0"}, "--sweep: *"},
		{[]string{"--sweep", "4X"}, "--sweep: *"},
		{[]string{"--sweep", "2G"}, "--sweep: *"},
		{[]string{"--sweep", "1025M"}, "--sweep: *"},
		{[]string{"--sweep", "99999999999999999M"}, "--sweep: *"},
		{[]string{"--sweep", "1K,,2K"}, "--sweep: *"},
		{[]string{"--sweep", "blksize"}, "--sweep: 'blksize' is a policy, not a buffer size such as 4096, 64K or 1M"},
		{[]string{"--sweep", "default"}, "--sweep: 'default' is a policy, not a buffer size such as 4096, 64K or 1M"},
		{[]string{"--policies", "none", "--sweep", "none", "--peers", "none"}, "--policies, --sweep and --peers are all empty: nothing to time"},
		{[]string{"extra"}, "unexpected argument 'extra': headbench takes only options"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := parseFlags(tc.args)
			var ue *getopt.UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("parseFlags error = %v, want a usage error", err)
			}
			if prefix, ok := strings.CutSuffix(tc.want, "*"); ok && !strings.HasPrefix(err.Error(), prefix) || !ok && err.Error() != tc.want {
				t.Errorf("message %q, want %q", err, tc.want)
			}
		})
	}
}

func TestParseFlagsHelp(t *testing.T) {
	// --help acts where it is met, as in GNU tools: a bad option after it
	// is not looked at.
	for _, args := range [][]string{{"--help"}, {"--he"}, {"--runs", "3", "--help", "--bogus"}} {
		if _, err := parseFlags(args); !errors.Is(err, errHelp) {
			t.Errorf("parseFlags(%q) error = %v, want errHelp", args, err)
		}
	}
}

// TestUsageNamesEveryFlag keeps --help in step with the flags.
func TestUsageNamesEveryFlag(t *testing.T) {
	for _, o := range longOptions {
		name := "--" + o.Name
		if !strings.Contains(usageText, "  "+name+" ") && !strings.Contains(usageText, "  "+name+"\n") {
			t.Errorf("usage text does not document %s", name)
		}
	}
	for _, names := range [][]string{fsNames, pathNames, policyNames(), peerNames()} {
		for _, n := range names {
			if !strings.Contains(usageText, n) {
				t.Errorf("usage text does not name %s", n)
			}
		}
	}
}

// TestREADMETimes: the README states the times --help states.
func TestREADMETimes(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("no README next to the module: %v", err)
	}
	for _, want := range []string{"--quick: " + quickTime, fullTime} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md does not say %q, as --help does", want)
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
		{[]string{"--bogus"}, 2, "", "headbench: unrecognized option '--bogus'\nTry 'headbench --help' for more information.\n"},
		{[]string{"--runs", "-1"}, 2, "", "headbench: --runs '-1': want a whole number from 1 to 1000\nTry 'headbench --help' for more information.\n"},
	} {
		var stdout, stderr strings.Builder
		status := run(t.Context(), tc.args, &stdout, &stderr)
		if status != tc.status || !strings.Contains(stdout.String(), tc.stdout) || stderr.String() != tc.stderr {
			t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, status, clip(stdout.String(), 80), stderr.String(), tc.status, tc.stdout, tc.stderr)
		}
	}
}
