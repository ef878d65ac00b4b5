// Package enclib has vegeta's encoders: constructors over a parameter w
// that return a closure writing a record per call.
package enclib

import (
	"encoding/csv"
	"encoding/gob"
	"io"
	"jbuf"
)

// A Result is one record.
type Result struct{ Name string }

// An Encoder encodes one record per call.
type Encoder func(r *Result) error

// Encode encodes r.
func (enc Encoder) Encode(r *Result) error { // want Encode:`sink\(0 call=true loop=false\)`
	return enc(r)
}

// NewEncoder returns a gob Encoder over r: a write per Encode.
func NewEncoder(r io.Writer) Encoder { // want NewEncoder:`flow\(result 0 <- 0  call=true\)`
	enc := gob.NewEncoder(r)
	return func(r *Result) error { return enc.Encode(r) }
}

// NewCSVEncoder flushes a csv.Writer of its own per record.
func NewCSVEncoder(w io.Writer) Encoder { // want NewCSVEncoder:`flow\(result 0 <- 0  call=true\)`
	enc := csv.NewWriter(w)
	return func(r *Result) error {
		if err := enc.Write([]string{r.Name}); err != nil {
			return err
		}
		enc.Flush()
		return enc.Error()
	}
}

// NewJSONEncoder dumps a third party's buffer to w per record.
func NewJSONEncoder(w io.Writer) Encoder { // want NewJSONEncoder:`flow\(result 0 <- 0  call=true\)`
	var jw jbuf.Writer
	return func(r *Result) error {
		jw.RawString(r.Name)
		if jw.Error != nil {
			return jw.Error
		}
		_, err := jw.DumpTo(w)
		return err
	}
}
