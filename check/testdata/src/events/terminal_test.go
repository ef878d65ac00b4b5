package events

import (
	"os"
	"testing"
)

// A test's stand-in for standard input leaves keys reading key presses.
func TestKeys(t *testing.T) {
	r, _, _ := os.Pipe()
	stdin = r
	keys()
}
