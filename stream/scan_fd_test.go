//go:build linux

package stream_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// scanAll returns the tokens a scanner gives and its error.
func scanAll(s interface {
	Scan() bool
	Text() string
	Err() error
}) (tokens []string, err error) {
	for s.Scan() {
		tokens = append(tokens, s.Text())
	}
	return tokens, s.Err()
}

// TestFDScannerReadsPolicySize: a Scanner over a descriptor reads with the
// policy's size, 128 KiB here, not 64 KiB, while a token is limited exactly
// as in bufio: with the default limit and with Buffer's, a line that fits
// is returned and one a byte longer fails with ErrTooLong, after the same
// tokens as bufio.Scanner over the same bytes.
func TestFDScannerReadsPolicySize(t *testing.T) {
	t.Setenv(policyEnv, "128K")
	line := func(n int) string { return strings.Repeat("x", n) + "\n" }
	tail := strings.Repeat(line(99), 2000) // so the file is larger than the buffer
	tests := []struct {
		name      string
		content   string
		bufCap    int // Buffer(make([]byte, 0, bufCap), max); 0: no Buffer call
		max       int
		wantFirst int  // the size the first read(2) asks for
		words     bool // split with ScanWords, which skips spaces without a token
	}{
		{"short lines", tail, 0, 0, 131072, false},
		{"a line at the limit", line(99) + line(stream.MaxScanTokenSize-1) + tail, 0, 0, 131072, false},
		{"a line over the limit", line(99) + line(stream.MaxScanTokenSize) + tail, 0, 0, 131072, false},
		{"a line at Buffer's limit", line(10) + line(999) + tail, 100, 1000, 100, false},
		{"a line over Buffer's limit", line(10) + line(1000) + tail, 100, 1000, 100, false},
		{"words after more spaces than the limit", "a " + strings.Repeat(" ", 100000) + "word " + tail, 0, 0, 131072, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &fdRecorder{f: openTempFile(t, tt.content)}
			s := stream.NewScanner(rec)
			b := bufio.NewScanner(bytes.NewReader([]byte(tt.content)))
			if tt.words {
				s.Split(stream.ScanWords)
				b.Split(bufio.ScanWords)
			}
			if tt.bufCap > 0 {
				s.Buffer(make([]byte, 0, tt.bufCap), tt.max)
				b.Buffer(make([]byte, 0, tt.bufCap), tt.max)
			}
			gotTokens, gotErr := scanAll(s)
			wantTokens, wantErr := scanAll(b)
			if diff := cmp.Diff(wantTokens, gotTokens); diff != "" {
				t.Errorf("tokens (-bufio +stream):\n%s", diff)
			}
			if gotErr != wantErr {
				t.Errorf("Err() = %v, bufio's %v", gotErr, wantErr)
			}
			if len(rec.reads) == 0 || rec.reads[0] != tt.wantFirst {
				t.Errorf("sizes read(2) was asked for: %v, want the first %d", rec.reads, tt.wantFirst)
			}
		})
	}
}

// TestScannerBufferDecides checks that a Scanner over a descriptor given
// its first buffer by Buffer still makes the decision before its first
// read (so that stdbuf -i0 and the prompt flush apply), and that Info
// reports it.
func TestScannerBufferDecides(t *testing.T) {
	t.Setenv(policyEnv, "")
	tests := []struct {
		name string
		buf  []byte
	}{
		{"no Buffer", nil},
		{"Buffer with a 64-byte slice", make([]byte, 64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := openTempFile(t, "a\nb\n")
			s := stream.NewScanner(f)
			if tt.buf != nil {
				s.Buffer(tt.buf, 1024)
			}
			var lines []string
			for s.Scan() {
				lines = append(lines, s.Text())
			}
			type result struct {
				Lines []string
				Fd    int
			}
			got := result{lines, s.Info().Fd}
			want := result{[]string{"a", "b"}, int(f.Fd())}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
