package stream

import (
	"errors"
	"io"
)

// Fault-injecting readers and writers for the in-memory tests. They are
// deterministic: the same calls get the same answers, so two
// implementations driven by the same operations can be compared call by
// call, and each keeps a log of the calls made on it.

// errFault is the error the fault injectors return.
var errFault = errors.New("injected fault")

// readCall is one Read made on a faultReader or logReader: len(p) and the
// result. Op is "Read", or "WriteTo" for a delegated WriteTo (Len is then 0).
type readCall struct {
	Op  string
	Len int
	N   int64
	Err error
}

// faultReader reads data with faults:
//   - steps caps the bytes of successive Reads (cycled; nil: no cap); a 0
//     step is a (0, nil) read, so 100 zero steps in a row make a Reader
//     give up with io.ErrNoProgress; after maxZeroReads of them zero steps
//     are ignored, so that a caller without that guard (io.ReadAll,
//     bytes.Buffer.ReadFrom) does not loop forever;
//   - at byte errAt (if >= 0) it returns err, on every read (sticky) or
//     once, after which the data goes on (transient);
//   - withData returns the last bytes before errAt or the end together
//     with the error (err or io.EOF) instead of in a read of their own;
//   - eofs: the data is split in parts by the offsets in eofs, and a read
//     at each offset returns (0, io.EOF) once, as a terminal does at ^D.
type faultReader struct {
	data      []byte
	pos       int
	steps     []int
	step      int
	errAt     int
	err       error
	transient bool
	withData  bool
	eofs      []int
	zeros     int
	calls     []readCall
}

// maxZeroReads bounds the (0, nil) reads of a faultReader: ten times what
// makes a Reader give up.
const maxZeroReads = 10 * maxConsecutiveEmptyReads

// newFaultReader returns a faultReader of data that returns every byte
// asked for and then io.EOF; set its fields for faults.
func newFaultReader(data []byte) *faultReader {
	return &faultReader{data: data, errAt: -1, err: errFault}
}

func (r *faultReader) Read(p []byte) (int, error) {
	n, err := r.read(p)
	r.calls = append(r.calls, readCall{Op: "Read", Len: len(p), N: int64(n), Err: err})
	return n, err
}

func (r *faultReader) read(p []byte) (int, error) {
	limit := len(p)
	if len(r.steps) > 0 {
		s := r.steps[r.step%len(r.steps)]
		r.step++
		if s == 0 && r.zeros < maxZeroReads {
			r.zeros++
			return 0, nil
		}
		if s > 0 {
			limit = min(limit, s)
		}
	}
	end, stop := len(r.data), io.EOF
	for _, e := range r.eofs {
		if e >= r.pos && e < end {
			end = e
		}
	}
	if r.errAt >= 0 && r.errAt >= r.pos && r.errAt <= end {
		end, stop = r.errAt, r.err
	}
	if r.pos >= end {
		r.stopped(stop)
		return 0, stop
	}
	n := copy(p[:limit], r.data[r.pos:end])
	r.pos += n
	if r.withData && n > 0 && r.pos == end {
		r.stopped(stop)
		return n, stop
	}
	return n, nil
}

// stopped records that the stop at r.pos has been reported: a transient
// error and an EOF between parts are reported once.
func (r *faultReader) stopped(stop error) {
	if stop != io.EOF && r.transient {
		r.errAt = -1
	}
	for i, e := range r.eofs {
		if e == r.pos && stop == io.EOF {
			r.eofs = append(r.eofs[:i:i], r.eofs[i+1:]...)
			break
		}
	}
}

// logReader logs the Reads made on an in-memory reader such as a
// strings.Reader; logWriterTo also logs and forwards WriteTo.
type logReader struct {
	r     io.Reader
	calls []readCall
}

func (l *logReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.calls = append(l.calls, readCall{Op: "Read", Len: len(p), N: int64(n), Err: err})
	return n, err
}

type logWriterTo struct{ *logReader }

func (l logWriterTo) WriteTo(w io.Writer) (int64, error) {
	n, err := l.r.(io.WriterTo).WriteTo(w)
	l.calls = append(l.calls, readCall{Op: "WriteTo", N: n, Err: err})
	return n, err
}

// logged wraps r in a logReader, keeping its WriterTo if it has one, and
// returns the wrapper and a function that returns the calls made since
// it was last called.
func logged(r io.Reader) (io.Reader, func() []readCall) {
	if f, ok := r.(*faultReader); ok {
		return f, sinceLast(&f.calls)
	}
	l := &logReader{r: r}
	if _, ok := r.(io.WriterTo); ok {
		return logWriterTo{l}, sinceLast(&l.calls)
	}
	return l, sinceLast(&l.calls)
}

// sinceLast returns a function that returns the elements appended to
// *log since its previous call.
func sinceLast[T any](log *[]T) func() []T {
	seen := 0
	return func() []T {
		s := (*log)[seen:]
		seen = len(*log)
		return s
	}
}

// writeCall is one Write made on a faultWriter: what it was given, and
// the result. Op is "Write" or "WriteString".
type writeCall struct {
	Op   string
	Data string
	N    int
	Err  error
}

// faultWriter accepts bytes with faults:
//   - steps caps the bytes of successive Writes (cycled; nil: no cap), a
//     short write with a nil error, as a broken writer does; a 0 step is a
//     (0, nil) write;
//   - once errAt bytes have been accepted (if errAt >= 0) every Write
//     returns err, having accepted what fits before errAt.
type faultWriter struct {
	out   []byte
	steps []int
	step  int
	errAt int
	err   error
	calls []writeCall
}

// newFaultWriter returns a faultWriter that accepts everything; set its
// fields for faults.
func newFaultWriter() *faultWriter { return &faultWriter{errAt: -1, err: errFault} }

func (w *faultWriter) Write(p []byte) (int, error) {
	n, err := w.write(p)
	w.calls = append(w.calls, writeCall{Op: "Write", Data: string(p), N: n, Err: err})
	return n, err
}

func (w *faultWriter) write(p []byte) (int, error) {
	if w.errAt >= 0 && len(w.out)+len(p) > w.errAt {
		n := max(w.errAt-len(w.out), 0)
		w.out = append(w.out, p[:n]...)
		return n, w.err
	}
	n := len(p)
	if len(w.steps) > 0 {
		n = min(n, w.steps[w.step%len(w.steps)])
		w.step++
	}
	w.out = append(w.out, p[:n]...)
	return n, nil
}

// writes returns the data of each Write call made so far.
func (w *faultWriter) writes() []string {
	var s []string
	for _, c := range w.calls {
		s = append(s, c.Data)
	}
	return s
}

// stringFaultWriter is a faultWriter that is also an io.StringWriter.
type stringFaultWriter struct{ *faultWriter }

func (w stringFaultWriter) WriteString(s string) (int, error) {
	n, err := w.write([]byte(s))
	w.calls = append(w.calls, writeCall{Op: "WriteString", Data: s, N: n, Err: err})
	return n, err
}
