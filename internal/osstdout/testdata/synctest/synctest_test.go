// Package synctest is a test binary for `stdiobuf build -stdout`'s bound:
// its tests write to standard output inside and outside testing/synctest
// bubbles, and after each line wait on descriptor 3 until the parent has
// read it, so a line the bound does not deliver while the program waits
// fails the parent's deadline.
package synctest

import (
	"fmt"
	"syscall"
	"testing"
	"testing/synctest"
)

// answered waits until the parent answers on descriptor 3 (one byte). It
// reads with syscall.Read, which no hook of package os sees: a *File's
// read of a pipe flushes standard output, and the wait must not.
func answered(t *testing.T) {
	var b [1]byte
	if _, err := syscall.Read(3, b[:]); err != nil {
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
