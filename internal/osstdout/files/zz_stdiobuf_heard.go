//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -files`: where the
// program hears from another process, which may have changed a file
// before it told the program, the read buffers give back what they hold,
// so that the next read of the file is fresh, as plainly. A peer tells
// by ending (Wait returns), by a signal (os/signal's process, through
// stdioPeerHeard) and by data on a pipe, a socket or a terminal (a
// Read of such a *File, standard input's pipe buffer, package net's
// reads through internal/poll).

package os

func (p *Process) Wait() (*ProcessState, error) {
	ps, err := p.stdioRawWait()
	stdioHeard(nil)
	return ps, err
}
