// Package jbuf is a third party's chunked buffer, as easyjson's
// jwriter.Writer over its buffer.Buffer: DumpTo writes what it holds to a
// writer in one call, which the analyzer learns from this package's facts.
package jbuf

import (
	"io"
	"net"
)

// A Buffer holds bytes in chunks.
type Buffer struct {
	Buf  []byte
	bufs [][]byte
}

// AppendString adds s.
func (b *Buffer) AppendString(s string) { b.Buf = append(b.Buf, s...) }

// DumpTo writes what b holds to w and empties b.
func (b *Buffer) DumpTo(w io.Writer) (int, error) { // want DumpTo:`sink\(1 call=false loop=false\)`
	bufs := net.Buffers(b.bufs)
	if len(b.Buf) > 0 {
		bufs = append(bufs, b.Buf)
	}
	n, err := bufs.WriteTo(w)
	b.bufs, b.Buf = nil, nil
	return int(n), err
}

// A Writer is a Buffer with an error.
type Writer struct {
	Error  error
	Buffer Buffer
}

// RawString adds s.
func (w *Writer) RawString(s string) { w.Buffer.AppendString(s) }

// DumpTo writes what w holds to out.
func (w *Writer) DumpTo(out io.Writer) (int, error) { // want DumpTo:`sink\(1 call=false loop=false\)`
	return w.Buffer.DumpTo(out)
}
