package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRun(t *testing.T) {
	long := strings.Repeat("x", 10000) // longer than the 4096-byte buffer
	for _, tc := range []struct {
		name   string
		args   []string
		in     string
		out    string
		status int
	}{
		{"all lines", nil, "a\nbb\nccc\n", "a\nbb\nccc\n", 0},
		{"first two", []string{"-n", "2"}, "a\nbb\nccc\n", "a\nbb\n", 0},
		{"zero lines", []string{"-n", "0"}, "a\n", "", 0},
		{"more than there are", []string{"-n", "9"}, "a\nb", "a\nb", 0},
		{"last line without newline counts", []string{"-n", "2"}, "a\nb", "a\nb", 0},
		{"long line in pieces", []string{"-n", "1"}, long + "\nnext\n", long + "\n", 0},
		{"long line, small buffers", []string{"-i", "16", "-o", "16", "-n", "2"}, long + "\n" + long + "\nz\n", long + "\n" + long + "\n", 0},
		{"other delimiter", []string{"-d", ";", "-n", "2"}, "a;b;c;", "a;b;", 0},
		{"empty input", nil, "", "", 0},
		{"bad flag", []string{"-x"}, "", "", 2},
		{"bad delimiter", []string{"-d", "ab"}, "", "", 2},
		{"bad size", []string{"-i", "0"}, "", "", 2},
		{"argument", []string{"file"}, "", "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tc.args, strings.NewReader(tc.in), &out, &errOut)
			if status != tc.status {
				t.Errorf("status %d, want %d (stderr %q)", status, tc.status, errOut.String())
			}
			if diff := cmp.Diff(tc.out, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write(p []byte) (int, error) { return 0, errFull }

var errFull = errors.New("device full")

func TestRunWriteError(t *testing.T) {
	var errOut bytes.Buffer
	if status := run(nil, strings.NewReader("a\n"), fullWriter{}, &errOut); status != 1 {
		t.Errorf("status %d on a failing writer, want 1", status)
	}
	if !strings.Contains(errOut.String(), errFull.Error()) {
		t.Errorf("stderr %q does not name the write error", errOut.String())
	}
}
