//go:build linux

package stream_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// TestReadaheadShellGroup runs `{ prog; cat; } < file`, prog reading
// some lines of its standard input and exiting without a sync: with
// read-ahead (readahead:64K) cat gets the bytes it gets after a plain
// Reader of the same size (65536), those after the plain Reader's last
// read.
func TestReadaheadShellGroup(t *testing.T) {
	var b strings.Builder
	for i := range 9000 {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", i%61))
	}
	data := b.String() // about 340 KB: five buffers and more
	name := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	// cat's output after prog has run under policy p.
	rest := func(t *testing.T, p string, ops []string) (string, stream.Info) {
		t.Helper()
		in, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		res := helperRun{
			ops:   append(ops, "osexit=0"),
			env:   []string{policyEnv + "=" + p, "GOMAXPROCS=2"},
			under: []string{"sh", "-c", `"$@"; cat`, "sh"},
			stdin: in,
		}.run(t)
		if len(res.report.Errs) > 0 {
			t.Fatalf("policy %s: %q", p, res.report.Errs)
		}
		return res.stdout, res.report.Stdin
	}
	for _, ops := range [][]string{
		{"readline"},
		{"skip=2500"},           // two buffers and a part
		{"skip=4000", "skip=3"}, // and further
	} {
		t.Run(strings.Join(ops, ","), func(t *testing.T) {
			plain, _ := rest(t, "65536", ops)
			ahead, info := rest(t, "readahead:64K", ops)
			// Overlapped and Waited count the chunks taken from a ring.
			if info.Overlapped+info.Waited == 0 {
				t.Fatalf("prog's Stdin did not read ahead: %v", info)
			}
			if !strings.HasSuffix(data, plain) || len(plain) == len(data) {
				t.Fatalf("after the plain Reader cat printed %d bytes, not a tail of the input's %d", len(plain), len(data))
			}
			if ahead != plain {
				t.Errorf("cat printed %d bytes after read-ahead, %d after a plain Reader; first lines:\n%s", len(ahead), len(plain),
					cmp.Diff(firstLines(plain, 3), firstLines(ahead, 3)))
			}
		})
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) []string {
	lines := strings.SplitAfter(s, "\n")
	return lines[:min(n, len(lines))]
}
