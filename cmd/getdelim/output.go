package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/stdiobuf/stdiobuf/stream"
)

// output is standard output and the diagnostics, with GNU head's rules
// for write errors. head writes through stdio and reports a failed write
// in one of two ways, and this tool does the same:
//
//   - a write that reaches the descriptor in the middle of the run and
//     fails ends the program at once with
//     "head: error writing 'standard output': No space left on device";
//   - a failure that shows only when the buffer is flushed at exit (a
//     small output) is gnulib's close_stdout message,
//     "head: write error: No space left on device".
//
// Both exit with status 1.
type output struct {
	prog   string
	w      *stream.Writer // the locked standard output
	stderr io.Writer

	wroteHeader bool // the next header starts with a blank line
	started     bool // something has been written
	// deferred is set when a flush before a diagnostic failed. glibc drops
	// the buffer then and carries on; the failure is reported at exit.
	deferred bool
}

// A writeError is a failed write to standard output that ends the run.
type writeError struct{ err error }

func (e *writeError) Error() string {
	return "error writing 'standard output': " + errorText(e.err)
}

func (e *writeError) Unwrap() error { return e.err }

// diagnose prints "PROG: message" on standard error. Like glibc's
// error(), it first flushes standard output, so that the two streams
// interleave as they were written when they go to the same place.
func (o *output) diagnose(format string, args ...any) {
	if o.w.Flush() != nil {
		o.deferred = true
	}
	fmt.Fprintf(o.stderr, "%s: %s\n", o.prog, fmt.Sprintf(format, args...))
}

// header writes the "==> NAME <==" line before a file, after a blank line
// for all but the first. head does not check this printf, so neither is a
// failure here fatal: it shows at exit.
func (o *output) header(name string) {
	sep := "\n"
	if !o.wroteHeader {
		sep = ""
	}
	o.wroteHeader = true
	if _, err := fmt.Fprintf(o.w, "%s==> %s <==\n", sep, name); err != nil {
		o.deferred = true
	}
	o.started = true
}

// write writes p to standard output.
func (o *output) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	_, err := o.w.Write(p)
	return o.wrote(err)
}

// wrote checks the outcome of a write or copy to standard output: err is
// its error if the writing side failed, else nil.
func (o *output) wrote(err error) error {
	if err == nil && !o.started {
		// glibc's first fwrite on a stream writes whole buffers straight
		// to the descriptor, so one that exactly fills the buffer fails at
		// once where bufio's rule would keep it until the next write.
		if o.w.Buffered() > 0 && o.w.Available() == 0 {
			err = o.w.Flush()
		}
	}
	o.started = true
	// A broken pipe gets here only with SIGPIPE ignored: a write through
	// *os.File, and stream's kernel copies, end the program by SIGPIPE
	// first. Ignored, EPIPE is a write error, as it is to head.
	if err == nil || o.deferred {
		// After a failed flush the error stays with the Writer; exit
		// reports it as close_stdout does.
		return nil
	}
	return &writeError{err}
}

// isReadError tells whether err, returned by a copy from an input to
// standard output, came from reading the input. Reads fail with the
// *fs.PathError of a read(2); everything else (write(2), and the kernel
// copies whose usual failures are the destination's) is a write error.
func isReadError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Op == "read" || errors.Is(err, io.ErrNoProgress)
}
