//go:build linux

package main

import (
	"errors"
	"testing"
	"time"
)

// TestMeasure runs a small measurement: every figure is taken, and every
// count is of the buffer it should be (measure fails if a count ran on a
// buffer before it was filled: TestCountStamped).
func TestMeasure(t *testing.T) {
	f, err := measure(50, 3)
	if errors.Is(err, errOneCPU) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if f.local <= 0 || f.count <= 0 || f.remote <= 0 || f.fill <= 0 || f.refill <= 0 {
		t.Errorf("figures %+v: want every one above zero", f)
	}
}

// TestCountStamped checks the check that measure relies on: a buffer
// counted before its fill (still stamped with an older number) counts as
// -1, which the total then shows.
func TestCountStamped(t *testing.T) {
	b := make([]byte, 64)
	fill(b, []byte("12345678 a\nb\nc\n"), 10) // stamp 10 holds a '\n' byte: not counted
	if got := countStamped(b, 10); got != 3 {
		t.Errorf("countStamped(buffer 10, 10) = %d, want its 3 newlines", got)
	}
	if got := countStamped(b, 11); got != -1 {
		t.Errorf("countStamped(buffer 10, 11) = %d, want -1", got)
	}
}

// TestWakeCost runs a small measurement of the hand-overs: each way hands
// over every time (a lost hand-over would leave it waiting for good).
func TestWakeCost(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := wakeCost(50, 10*time.Microsecond)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("wakeCost still waiting after 60 s: a hand-over was lost")
	}
}
