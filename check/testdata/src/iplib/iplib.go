// Package iplib holds writers that a caller in another package gives an
// *os.File to: the analyzer follows the file into them by facts. Nothing
// here is reported, for nothing here is known to be a file but Default's
// output, written once per call.
package iplib

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// A Row is one record.
type Row struct {
	Name string
	N    int
}

// Report writes a header and then, through writeRow, a line per row.
func Report(w io.Writer, rows []Row) { // want Report:`sink\(0 call=false loop=true\)`
	fmt.Fprintln(w, "name\tn")
	for _, r := range rows {
		writeRow(w, r)
	}
}

func writeRow(w io.Writer, r Row) {
	fmt.Fprintf(w, "%s\t%d\n", r.Name, r.N)
}

// WriteRow writes one row: a write per record where a loop calls it.
func WriteRow(w io.Writer, r Row) error { // want WriteRow:`sink\(0 call=false loop=false\)`
	_, err := fmt.Fprintf(w, "%s\t%d\n", r.Name, r.N)
	return err
}

// Buffered writes through a bufio.Writer over w on every path.
func Buffered(w io.Writer, rows []Row) error {
	bw := bufio.NewWriter(w)
	for _, r := range rows {
		writeRow(bw, r)
	}
	return bw.Flush()
}

// Rebuffered makes w itself a bufio.Writer before its loop.
func Rebuffered(w io.Writer, rows []Row) error {
	bw := bufio.NewWriter(w)
	w = bw
	for _, r := range rows {
		writeRow(w, r)
	}
	return bw.Flush()
}

// Table writes a whole table through a csv.Writer of its own and
// flushes it once: a write per table, not per record.
func Table(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	for _, r := range rows {
		cw.Write([]string{r.Name})
	}
	cw.Flush()
	return cw.Error()
}

// A Writer writes each record to the writer it is made over in one call,
// as benchfmt.Writer does.
type Writer struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { // want NewWriter:`flow\(result 0.w <- 0  call=false\)`
	return &Writer{w: w}
}

// Write writes r.
func (w *Writer) Write(r Row) error { // want Write:`sink\(0.w call=false loop=false\)`
	w.buf.Reset()
	fmt.Fprintf(&w.buf, "%s %d\n", r.Name, r.N)
	_, err := w.w.Write(w.buf.Bytes())
	return err
}

// An Encoder encodes one record per call, as vegeta's do.
type Encoder func(r Row) error

// Encode encodes r.
func (e Encoder) Encode(r Row) error { // want Encode:`sink\(0 call=true loop=false\)`
	return e(r)
}

// NewJSONEncoder returns an Encoder that writes a JSON value per record
// to w.
func NewJSONEncoder(w io.Writer) Encoder { // want NewJSONEncoder:`flow\(result 0 <- 0  call=true\)`
	enc := json.NewEncoder(w)
	return func(r Row) error { return enc.Encode(r) }
}

// NewCSVEncoder returns an Encoder that writes a CSV line per record to
// w and flushes its csv.Writer after each.
func NewCSVEncoder(w io.Writer) Encoder { // want NewCSVEncoder:`flow\(result 0 <- 0  call=true\)`
	cw := csv.NewWriter(w)
	return func(r Row) error {
		if err := cw.Write([]string{r.Name}); err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	}
}

// Each calls fn for each row.
func Each(rows []Row, fn func(Row)) { // want Each:`sink\(1 call=true loop=true\)`
	for _, r := range rows {
		fn(r)
	}
}

// A Logger writes a line per call to Out.
type Logger struct {
	Out io.Writer // want Out:`holds os.Stdout`
}

// Default logs to standard output.
var Default = &Logger{Out: os.Stdout}

// Log writes msg.
func (l *Logger) Log(msg string) { // want Log:`sink\(0.Out call=false loop=false\)`
	fmt.Fprintln(l.Out, msg)
}
