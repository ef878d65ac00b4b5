//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// sample is what one run of a command cost.
type sample struct {
	Wall time.Duration
	User time.Duration
	Sys  time.Duration
	// MaxRSS is the child's peak resident set in bytes.
	MaxRSS int64
}

// runSpec says how to run a command once.
type runSpec struct {
	argv []string
	// stdin, if set, is opened anew for each run so that every run reads
	// from offset 0 of a descriptor the child gets as its own fd 0.
	stdin string
	// stdout receives the standard output: /dev/null for timed runs.
	stdout io.Writer
}

// maxStderr bounds the standard error kept from a child.
const maxStderr = 64 << 10

// runOnce runs spec, timing it with the wall clock around Start and Wait,
// and returns the cost and the start of the child's standard error. An
// exit status other than 0 is an error that quotes the standard error.
func runOnce(ctx context.Context, spec runSpec) (sample, string, error) {
	cmd := exec.CommandContext(ctx, spec.argv[0], spec.argv[1:]...)
	if spec.stdin != "" {
		f, err := os.Open(spec.stdin)
		if err != nil {
			return sample{}, "", err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	cmd.Stdout = spec.stdout
	stderr := &capped{max: maxStderr}
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, "", err
	}
	err := cmd.Wait()
	wall := time.Since(start)
	if ctx.Err() != nil {
		return sample{}, stderr.String(), context.Cause(ctx)
	}
	if err != nil {
		return sample{}, stderr.String(), fmt.Errorf("%s: %v: %s", shortName(spec.argv[0]), err, clip(strings.TrimSpace(stderr.String()), 400))
	}
	s := sample{Wall: wall, User: cmd.ProcessState.UserTime(), Sys: cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) << 10 // Linux reports KiB
	}
	return s, stderr.String(), nil
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }
