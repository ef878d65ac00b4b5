package events

import (
	"fmt"
	"io"
	"os"
)

type chunkWriter struct {
	w     io.Writer
	buf   []byte
	limit int
}

// fill writes the buffer out only when it is full: once per limit bytes.
func (cw *chunkWriter) fill(items []string) {
	for _, it := range items {
		cw.buf = append(cw.buf, it...)
		if cw.limit < len(cw.buf) {
			cw.w.Write(cw.buf)
			cw.buf = cw.buf[:0]
		}
	}
}

// fillChecked is fill with the writer tested too.
func (cw *chunkWriter) fillChecked(items []string) {
	for _, it := range items {
		cw.buf = append(cw.buf, it...)
		if cw.w != nil && cw.limit < len(cw.buf) {
			cw.w.Write(cw.buf)
			cw.buf = cw.buf[:0]
		}
	}
}

func chunks(items []string) {
	cw := &chunkWriter{w: os.Stdout, limit: 1024}
	cw.fill(items)
	cw.fillChecked(items)
}

// A length tested, but nothing emptied: per record.
func lengths(lines []string) {
	for _, l := range lines {
		if len(l) > 0 {
			fmt.Println(l) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
	}
}
