//go:build linux

package main

import (
	"fmt"
	"io"
)

// cleanups undoes what a run made (temporary folders, mounts) in reverse
// order. The run calls run on every way out, an interrupt included, so that
// nothing stays mounted or on disk.
type cleanups struct {
	steps []cleanupStep
}

type cleanupStep struct {
	what string
	fn   func() error
}

// push adds a step; what says what it undoes, for the error message.
func (c *cleanups) push(what string, fn func() error) {
	c.steps = append(c.steps, cleanupStep{what, fn})
}

// run runs every step, last pushed first, reports failures to log and
// returns how many failed. Each step runs once, however often run is called.
func (c *cleanups) run(log io.Writer) int {
	failed := 0
	for i := len(c.steps) - 1; i >= 0; i-- {
		if err := c.steps[i].fn(); err != nil {
			fmt.Fprintf(log, "headbench: cleanup: %s: %v\n", c.steps[i].what, err)
			failed++
		}
	}
	c.steps = nil
	return failed
}
