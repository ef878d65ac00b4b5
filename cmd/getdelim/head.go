package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/stdiobuf/stdiobuf/stream"
)

// tool is one run over the files of a command line.
type tool struct {
	cfg     config
	headers bool
	out     *output
	stdin   *stream.Reader // the locked stream.Stdin
	inputs  []stream.Info  // for --stats: each input's stream, in order
}

// input is one FILE operand being printed.
type input struct {
	name  string  // as headers and messages show it
	q     quoting // how messages quote name
	f     *os.File
	r     *stream.Reader
	stdin bool
}

// remaining returns how many bytes are left to read from a regular file,
// the buffered ones included; known is false for anything else.
func (in *input) remaining() (n int64, known bool) {
	st, err := in.f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	off, err := in.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, false
	}
	return max(st.Size()-off, 0) + int64(in.r.Buffered()), true
}

// readError is the diagnostic for a failed read of in.
func (in *input) readError(err error) error {
	return fmt.Errorf("error reading %s: %s", in.q.always(in.name), errorText(err))
}

// shrunk is the diagnostic for an input that ended before the size fstat
// gave it.
func (in *input) shrunk() error {
	return fmt.Errorf("%s: file has shrunk too much", in.q.ifNeeded(in.name))
}

// headFile prints one operand ("-" is standard input). It returns false
// if the file failed, after saying why; a *writeError ends the run.
func (t *tool) headFile(operand string) (ok bool, fatal error) {
	var in *input
	if operand == "-" {
		in = &input{name: "standard input", q: t.cfg.quoting, f: os.Stdin, r: t.stdin, stdin: true}
	} else {
		f, err := os.Open(operand)
		if err != nil {
			t.out.diagnose("cannot open %s for reading: %s", t.cfg.quoting.always(operand), errorText(err))
			return false, nil
		}
		in = &input{name: operand, q: t.cfg.quoting, f: f, r: stream.NewReader(f)}
	}
	err := t.head(in)
	if !in.stdin {
		if cerr := in.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("failed to close %s: %s", t.cfg.quoting.always(operand), errorText(cerr))
		}
	}
	if t.cfg.stats {
		t.inputs = append(t.inputs, in.r.Info())
	}
	var we *writeError
	if errors.As(err, &we) {
		return false, err
	}
	if err != nil {
		t.out.diagnose("%s", err)
		return false, nil
	}
	return true, nil
}

// head prints the part of in the options ask for.
func (t *tool) head(in *input) error {
	if t.headers {
		t.out.header(in.name)
	}
	switch {
	case t.cfg.elide && t.cfg.lines:
		return t.elideLines(in)
	case t.cfg.elide:
		return t.elideBytes(in)
	case t.cfg.lines:
		return t.firstLines(in)
	}
	return t.firstBytes(in)
}

// firstLines prints the first count records.
func (t *tool) firstLines(in *input) error {
	if _, err := t.copyRecords(in, toInt64(t.cfg.count)); err != nil {
		return err
	}
	t.giveBack(in)
	if in.stdin && in.r.Buffered() > 0 {
		// A pipe cannot take back what was read past the last line. head
		// reads with read(2) and loses it; so does this tool, so that a
		// second "-" operand sees what it would see under head.
		in.r.Discard(in.r.Buffered())
	}
	return nil
}

// firstBytes prints the first count bytes.
func (t *tool) firstBytes(in *input) error {
	if _, err := t.copyBytes(in, toInt64(t.cfg.count)); err != nil {
		return err
	}
	t.giveBack(in)
	return nil
}

// giveBack leaves a seekable input's offset just after the last byte
// printed (Reader.Sync, glibc's fflush on an input stream), so that
// `{ getdelim -n 2; cat; } < file` prints the file once, as with head.
func (t *tool) giveBack(in *input) {
	unread := in.r.Buffered()
	if err := in.r.Sync(); err != nil {
		t.out.diagnose("%s: cannot seek to relative offset %d: %s", in.q.ifNeeded(in.name), -unread, errorText(err))
	}
}

// copied sorts out the error of a copy from in to standard output: a
// failed read names the input, anything else is the output's.
func (t *tool) copied(in *input, err error) error {
	if err != nil && isReadError(err) {
		if werr := t.out.wrote(nil); werr != nil {
			return werr
		}
		return in.readError(err)
	}
	return t.out.wrote(err)
}

// copyRecords copies up to n records of in to standard output and
// returns the bytes copied: by default with stream's CopyRecords, which
// writes whole runs of records from the buffer; with --loop one Getdelim
// and one Write per record, the seed's loop.
func (t *tool) copyRecords(in *input, n int64) (int64, error) {
	if !t.cfg.loop {
		written, _, err := in.r.CopyRecords(t.out.w, t.cfg.delim, n)
		return written, t.copied(in, err)
	}
	return t.loopRecords(in, n, math.MaxInt64)
}

// loopRecords is the getdelim/fwrite loop: it copies records until n
// records or limit bytes have been copied, whichever comes first, and
// returns the bytes copied.
func (t *tool) loopRecords(in *input, n, limit int64) (written int64, err error) {
	var line []byte
	r, w, delim := in.r, t.out.w, t.cfg.delim
	for i := int64(0); i < n && written < limit; i++ {
		var rerr error
		line, rerr = r.Getdelim(line[:0], delim)
		record := line[:min(int64(len(line)), limit-written)]
		written += int64(len(record))
		if rerr == nil && t.out.started {
			// What pass does for a whole record once output has
			// started, inline: the common case, without three calls.
			if _, werr := w.Write(record); werr != nil {
				if err := t.out.wrote(werr); err != nil {
					return written, err
				}
			}
			continue
		}
		if done, err := t.pass(in, record, rerr); done {
			return written, err
		}
	}
	return written, nil
}

// pass writes p, read from in with the error rerr, to standard output.
// done says that the copy is over: at the end of the input, or failed
// with err.
func (t *tool) pass(in *input, p []byte, rerr error) (done bool, err error) {
	if err := t.out.write(p); err != nil {
		return true, err
	}
	switch {
	case rerr == io.EOF:
		return true, nil
	case rerr != nil:
		return true, in.readError(rerr)
	}
	return false, nil
}

// copyBytes copies up to n bytes of in to standard output and returns
// how many it copied: by default with stream's CopyBytes (buffered bytes,
// then a kernel copy where both ends allow); with --loop a Read and a
// Write per buffer.
func (t *tool) copyBytes(in *input, n int64) (int64, error) {
	if !t.cfg.loop {
		// Fill the buffer first, so that only what it cannot hold goes
		// through the kernel: a kernel copy flushes standard output
		// first, and a small copy that fits in the buffers must leave
		// its output buffered, as fwrite would, for a failure to show
		// where it shows under head (at exit, as "write error").
		if n > 0 {
			if _, err := in.r.Peek(1); err == io.EOF {
				return 0, nil
			} else if err != nil {
				return 0, t.copied(in, err)
			}
		}
		if remaining, known := in.remaining(); known && min(n, remaining) > 2*pipeSize {
			growPipe(os.Stdout)
		}
		written, err := in.r.CopyBytes(t.out.w, n)
		return written, t.copied(in, err)
	}
	buf := make([]byte, min(n, int64(in.r.Size())))
	var written int64
	for written < n {
		m, rerr := in.r.Read(buf[:min(n-written, int64(len(buf)))])
		written += int64(m)
		if done, err := t.pass(in, buf[:m], rerr); done {
			return written, err
		}
	}
	return written, nil
}

// copyExactly copies the next n bytes of a seekable input, which it
// knows from fstat to be there, and leaves the offset after them. With
// --loop, lines are copied record by record.
func (t *tool) copyExactly(in *input, n int64) error {
	var written int64
	var err error
	if t.cfg.loop && t.cfg.lines {
		written, err = t.loopRecords(in, math.MaxInt64, n)
	} else {
		written, err = t.copyBytes(in, n)
	}
	if err != nil {
		return err
	}
	t.giveBack(in)
	if written < n {
		return in.shrunk()
	}
	return nil
}
