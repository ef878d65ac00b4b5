//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// benchRecords is how many numbers the transform benchmarks read, as
// many as bench/pathops.sh's transform reads by default.
const benchRecords = 100000

// BenchmarkTransform and BenchmarkTransformByHand time transform's loop
// (fmt.Fscan of a number, fmt.Fprintf of a line), as the program runs it
// and with bufio added by hand, per record and without the start and
// exit of a process that bench/pathops.sh's CPU figures include.
// bench/records.sh runs them in a test binary built plainly and in one
// built with stdiobuf test -files.
func BenchmarkTransform(b *testing.B)       { benchTransform(b, false) }
func BenchmarkTransformByHand(b *testing.B) { benchTransform(b, true) }

func benchTransform(b *testing.B, hand bool) {
	dir := b.TempDir()
	in, out := filepath.Join(dir, "nums"), filepath.Join(dir, "out")
	var nums strings.Builder
	for i := range benchRecords {
		nums.WriteString(strconv.Itoa(i*37%100003) + "\n")
	}
	if err := os.WriteFile(in, []byte(nums.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	defer func(was bool) { *byHand = was }(*byHand)
	*byHand = hand
	for b.Loop() {
		programs["transform"]([]string{in, out})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRecords), "ns/record")
}

// TestTransform checks what the benchmarks time: both ways write a line
// per number, the number and its square.
func TestTransform(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "nums")
	if err := os.WriteFile(in, []byte("3\n-4\n12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		hand bool
	}{
		{"as written", false},
		{"bufio by hand", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			defer func(was bool) { *byHand = was }(*byHand)
			*byHand = tt.hand
			programs["transform"]([]string{in, out})
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("3 9\n-4 16\n12345 152399025\n", string(got)); diff != "" {
				t.Errorf("transform's output (-want +got):\n%s", diff)
			}
		})
	}
}
