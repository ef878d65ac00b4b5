//go:build linux

package main

import (
	"runtime"
	"testing"
)

// TestMeasure runs a small measurement: every figure is taken, and every
// count is checked against the buffer's newlines (measure fails if one
// is wrong, as when a count ran before its buffer was filled).
func TestMeasure(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs to pin to")
	}
	f, err := measure(50, 3)
	if err != nil {
		t.Fatal(err)
	}
	if f.local <= 0 || f.count <= 0 || f.remote <= 0 {
		t.Errorf("figures %+v: want every one above zero", f)
	}
}
