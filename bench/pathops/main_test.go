//go:build linux

package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// straceTable is what strace -f -c -U name,calls -o FILE writes.
const straceTable = `syscall            calls
------------------ --------
openat                  35
write                    5
writev                   2
pwrite64                 1
read                     5
tee                      3
------------------ --------
total                   51
`

func TestParseCounts(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string]int
	}{
		{"table", straceTable, map[string]int{"openat": 35, "write": 5, "writev": 2, "pwrite64": 1, "read": 5, "tee": 3}},
		{"noise around it", "strace: Process 7 attached\n" + straceTable + "strace: Process 7 detached\n", map[string]int{"openat": 35, "write": 5, "writev": 2, "pwrite64": 1, "read": 5, "tee": 3}},
		{"empty", "", map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseCounts(tt.text)); diff != "" {
				t.Errorf("parseCounts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWritesAndTotal(t *testing.T) {
	m := parseCounts(straceTable)
	if got := writes(m); got != 8 {
		t.Errorf("writes = %d, want 8 (write + writev + pwrite64)", got)
	}
	want := 0
	for _, c := range fileCalls {
		want += m[c]
	}
	if got := total(m); got != want || got == 0 {
		t.Errorf("total = %d, want %d, the file calls of the table", got, want)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		xs := append([]float64(nil), tt.xs...)
		if got := median(xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
		if diff := cmp.Diff(tt.xs, xs); diff != "" {
			t.Errorf("median changed its argument (-before +after):\n%s", diff)
		}
	}
}

func TestRoundRatio(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want float64
	}{
		{"none", nil, nil, 0},
		// Rounds in two bands, each pair in the same one.
		{"bands", []float64{110, 77, 108, 76, 79}, []float64{100, 70, 100, 75, 75}, 1.08},
		{"zero reference left out", []float64{2, 3, 4}, []float64{0, 3, 2}, 1.5},
		{"shorter b", []float64{2, 4, 9}, []float64{1, 2}, 2},
	}
	for _, tt := range tests {
		if got := roundRatio(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: roundRatio(%v, %v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}
