//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// progress tells the user on standard error what runs now, how many runs
// are left and about how long they will take. On a terminal one status line
// is redrawn in place; elsewhere (a log file, CI) a line is printed at most
// every few seconds, so the log stays short.
type progress struct {
	w        io.Writer
	tty      bool
	last     time.Time
	every    time.Duration
	statusOn bool
	now      func() time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, every: 5 * time.Second, now: time.Now}
	if f, ok := w.(*os.File); ok {
		_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
		p.tty = err == nil
	}
	return p
}

// printf prints a message on a line of its own.
func (p *progress) printf(format string, args ...any) {
	p.clear()
	fmt.Fprintf(p.w, "headbench: "+format+"\n", args...)
}

// status shows what runs now: done of total runs finished, about left time
// to go.
func (p *progress) status(done, total int, left time.Duration, what string) {
	line := fmt.Sprintf("headbench: [%d/%d] %s; %d more runs, about %s to go", done+1, total, what, total-done-1, roundETA(left))
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.statusOn = true
		return
	}
	if now := p.now(); done == 0 || now.Sub(p.last) >= p.every {
		p.last = now
		fmt.Fprintln(p.w, line)
	}
}

// clear ends a status line drawn in place.
func (p *progress) clear() {
	if p.statusOn {
		fmt.Fprint(p.w, "\r\033[K")
		p.statusOn = false
	}
}

// roundETA writes an estimate without false precision.
func roundETA(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "a few seconds"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(5*time.Second).Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60/10*10)
}
