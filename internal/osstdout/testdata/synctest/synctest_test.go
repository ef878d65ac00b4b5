// Package synctest is a test binary for `stdiobuf build -stdout`'s bound:
// its tests write to standard output inside and outside testing/synctest
// bubbles, and after each line wait on descriptor 3 until the parent has
// read it, so a line the bound does not deliver while the program waits
// fails the parent's deadline.
package synctest

import (
	"fmt"
	"os"
	"testing"
	"testing/synctest"
)

// answered waits until the parent answers on descriptor 3 (one byte).
func answered(t *testing.T) {
	var b [1]byte
	if _, err := os.NewFile(3, "answers").Read(b[:]); err != nil {
		t.Fatalf("waiting for an answer: %v", err)
	}
}

// TestInsideThenOutside: the first line waits inside a bubble, the next
// one outside it.
func TestInsideThenOutside(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { fmt.Println("inside") })
	answered(t)
	fmt.Println("outside")
	answered(t)
}

// TestOutsideThenInside: the bound fires outside, then a line waits
// inside a bubble, and arrives while the program waits outside it.
func TestOutsideThenInside(t *testing.T) {
	fmt.Println("outside")
	answered(t)
	synctest.Test(t, func(t *testing.T) { fmt.Println("inside") })
	answered(t)
}
