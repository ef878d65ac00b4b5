//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gnuCases are command lines run under GNU head and getdelim, with the
// fixtures of harness_test.go in the working directory. stdin names the
// fixture on standard input ("" for /dev/null); each case runs with it
// as a file and through a pipe.
var gnuCases = []struct {
	args  string // split on spaces
	stdin string
}{
	// Counts and units.
	{"", "lines"},
	{"-n 5", "lines"},
	{"-n 0", "lines"},
	{"-n 100000000", "lines"},
	{"-n -5", "lines"},
	{"-n -0", "lines"},
	{"-n -39999", "lines"},
	{"-n -40000", "lines"},
	{"-n -100000000", "lines"},
	{"-c 100", "lines"},
	{"-c 0", "lines"},
	{"-c 100000000", "lines"},
	{"-c -100", "lines"},
	{"-c -0", "lines"},
	{"-c -100000000", "lines"},
	{"-c 1K", "binary"},
	{"-c 1kB", "binary"},
	{"-c -1KiB", "binary"},
	{"-c 2b", "binary"},
	{"--bytes=1MB", "huge-line"},
	{"--bytes=-3MiB", "huge-line"},
	{"--lines=7", "lines"},
	{"--lin=-7", "lines"},
	{"-n K", "lines"},
	{"-n +3", "lines"},
	{"-c 18446744073709551615", "three"},
	{"-n -18446744073709551615", "three"},
	{"-c -9223372036854775807", "three"},
	// The obsolete form.
	{"-5", "lines"},
	{"-5c", "lines"},
	{"-2k", "binary"},
	{"-1m", "huge-line"},
	{"-3l", "lines"},
	{"-2kl", "lines"},
	{"-4cl", "lines"},
	{"-3qv three nofinal", ""},
	{"-1z nul", ""},
	// Delimiters and odd data.
	{"-z -n 2", "nul"},
	{"-z -n -2", "nul"},
	{"--zero-terminated -c -3", "nul"},
	{"-n 2", "crlf"},
	{"-n -1", "crlf"},
	{"-n 3", "binary"},
	{"-n -3", "binary"},
	{"-c -1000", "binary"},
	{"-n 1", "huge-line"},
	{"-n 2", "huge-line"},
	{"-n -1", "huge-line"},
	{"-n -2", "huge-line"},
	{"-c -5", "huge-line"},
	{"-n 1", "empty"},
	{"-n -1", "empty"},
	{"-c -1", "empty"},
	{"-n 2", "nofinal"},
	{"-n -1", "nofinal"},
	{"-n -5", "nofinal"},
	// Several files, headers, standard input among them.
	{"empty three nofinal", ""},
	{"-n -1 empty three nofinal crlf nul", ""},
	{"-c -1 empty three nofinal crlf nul", ""},
	{"-c 3 three nofinal", ""},
	{"-q three lines", ""},
	{"--quiet three lines", ""},
	{"--silent three lines", ""},
	{"-v three", ""},
	{"--verbose -n 1", "three"},
	{"-n 3 - three -", "lines"},
	{"-c 5 - - three", "lines"},
	{"-n 1 - -", "three"},
	{"three -n 1 -- -n", ""},
	// Files that fail: the others are still printed.
	{"-n 2 three missing dir three", ""},
	{"-c -2 dir three", ""},
	{"-n -2 dir", ""},
	{"-c 2 dir", ""},
	{"-n 0 dir", ""},
	{"-c 0 dir", ""},
	{"-v -c -1 dir", ""},
	{"it's tab\tname missing'q missing\x01", ""},
	{"-n -2 - dir", "dir"},
	// Seeking is head's business: presume a pipe.
	{"---presume-input-pipe -n -3 lines", ""},
	{"---presume-input-pipe -c -3 lines", ""},
	// Bad command lines.
	{"-n abc", ""},
	{"-n 1R", ""},
	{"-c 1Y", ""},
	{"-c 16E", ""},
	{"-n 99999999999999999999", ""},
	{"-c -8E", ""},
	{"-c 5 -x", ""},
	{"-x", ""},
	{"--foo", ""},
	{"--foo=bar", ""},
	{"--v", ""},
	{"--=x", ""},
	{"--lines", ""},
	{"-n", ""},
	{"--quiet=1", ""},
	{"-5x", ""},
	{"-n 5 -3", ""},
	{"-q3", ""},
	{"-n \t5", "lines"},
	{"-c \t-5", "lines"},
	{"-c 1Ki", ""},
	{"-c 5\t", ""},
	{"-n a'b\\", ""},
}

// pipeDiffers are the cases that are only compared with standard input
// as a file. Read through a pipe, "-n N" loses what was read past the
// N-th line, and a second "-" starts after that: head loses the rest of
// its read(2) of up to 8 KiB, getdelim the rest of its stream buffer
// (4 KiB on a pipe), so they differ when more than 4 KiB is left.
var pipeDiffers = map[string]bool{"-n 3 - three -": true}

func TestAgainstGNUHead(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	for _, mode := range [][]string{nil, {"--loop"}} {
		for _, c := range gnuCases {
			for _, pipe := range []bool{false, true} {
				if pipe && (c.stdin == "" || c.stdin == "dir" || pipeDiffers[c.args]) {
					continue
				}
				name := fmt.Sprintf("%s%q<%s/pipe=%v", strings.Join(mode, " "), c.args, c.stdin, pipe)
				t.Run(name, func(t *testing.T) {
					inv := invocation{args: strings.Split(c.args, " "), dir: dir, stdin: c.stdin, pipe: pipe}
					if c.args == "" {
						inv.args = nil
					}
					progs.compare(t, inv, mode)
				})
			}
		}
	}
}

// TestSmallBuffers runs some cases with tiny stream buffers, where every
// record and every copy crosses buffer boundaries.
func TestSmallBuffers(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	for _, args := range []string{
		"-n 5 three nofinal crlf nul", "-n -2 three nofinal crlf nul", "-c 7 three nofinal crlf nul",
		"-c -7 three nofinal crlf nul", "-z -n 1 nul", "-n 3 - three -",
	} {
		for _, mode := range [][]string{{"--policy", "1"}, {"--policy", "5"}, {"--loop", "--policy", "3"}} {
			t.Run(fmt.Sprintf("%v%q", mode, args), func(t *testing.T) {
				progs.compare(t, invocation{args: strings.Split(args, " "), dir: dir, stdin: "lines"}, mode)
			})
		}
	}
}

// TestHelpAndVersion checks that --help and --version print something
// and succeed, as head's do; the texts differ.
func TestHelpAndVersion(t *testing.T) {
	progs := findPrograms(t)
	for _, args := range [][]string{{"--help"}, {"--version"}, {"--he", "--bogus"}, {"-n", "5", "--vers"}} {
		for _, p := range []struct{ path, name string }{{progs.head, "head"}, {progs.getdelim, "getdelim"}} {
			var out strings.Builder
			status, stderr := invocation{args: args}.run(t, p.path, p.name, &out)
			if status != 0 || stderr != "" || !strings.HasPrefix(out.String(), "Usage: "+p.name) && !strings.HasPrefix(out.String(), p.name) {
				t.Errorf("%s %q: status %d, stderr %q, stdout %q", p.name, args, status, stderr, out.String())
			}
		}
	}
}

// TestUnreadable checks a file that cannot be opened for reading among
// others. Run as root, it runs both programs as nobody.
func TestUnreadable(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("no\n"), 0); err != nil {
		t.Fatal(err)
	}
	inv := invocation{args: []string{"-n", "1", "three", "secret", "three"}, dir: dir}
	if os.Geteuid() == 0 {
		const nobody = 65534
		inv.asUID = nobody
		// nobody must be able to reach the programs and the fixtures.
		for _, d := range []string{dir, filepath.Dir(dir), filepath.Dir(progs.getdelim), filepath.Dir(filepath.Dir(progs.getdelim))} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	var out strings.Builder
	if _, stderr := inv.run(t, progs.head, "head", &out); !strings.Contains(stderr, "Permission denied") {
		t.Skipf("the file is readable after all (head says %q): cannot test", stderr)
	}
	progs.compare(t, inv, nil)
}

// TestArgv0 runs both programs under the same argv[0], which both put in
// front of their messages as given: the outputs must be the same bytes.
func TestArgv0(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	for _, argv0 := range []string{"./bin/prog", "/abs/prog", "", "dir/.libs/lt-prog", "dir/.libs/prog", ".libs/lt-prog"} {
		for _, args := range []string{"-n x", "-x", "--bogus", "-n", "-5z", "three missing", "--help"} {
			t.Run(fmt.Sprintf("%q %s", argv0, args), func(t *testing.T) {
				var got [2]result
				for i, path := range []string{progs.head, progs.getdelim} {
					var out strings.Builder
					inv := invocation{args: strings.Split(args, " "), dir: dir}
					status, stderr := inv.run(t, path, argv0, &out)
					got[i] = result{Status: status, Stderr: stderr}
					if args == "--help" {
						// The texts differ; the usage line names the program.
						got[i].Stdout, _, _ = strings.Cut(out.String(), "\n")
					}
				}
				if diff := cmp.Diff(got[0], got[1]); diff != "" {
					t.Errorf("GNU head (-) and getdelim (+) differ:\n%s", diff)
				}
			})
		}
	}
}
