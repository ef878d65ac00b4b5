package stream

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDescriptorStreams is streams over descriptors, where the report
// at exit (report.go) registers and counts when STDIOBUF_REPORT is set:
// writers over /dev/null in each mode, through each write method, and a
// reader over a file. Run with the variable unset it measures what the
// report costs a program that does not ask for it (bench/report-cost.sh
// compares it with a build without report.go); set, what it costs one
// that does.
func BenchmarkDescriptorStreams(b *testing.B) {
	lines := benchLines()
	lines = lines[:len(lines)-1] // the empty string after the last newline
	strs := make([]string, len(lines))
	for i, l := range lines {
		strs[i] = string(l)
	}
	text := benchText()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { null.Close() })
	writer := func(b *testing.B, mode Mode, pass func(w *Writer)) {
		w := NewWriterPolicy(null, Policy(65536))
		if err := w.Setvbuf(mode, 0); err != nil {
			b.Fatal(err)
		}
		benchPass(b, func() { pass(w); w.Flush() })
	}
	b.Run("op=Write/mode=full", func(b *testing.B) {
		writer(b, FullyBuffered, func(w *Writer) {
			for _, l := range lines {
				w.Write(l)
			}
		})
	})
	b.Run("op=WriteString/mode=full", func(b *testing.B) {
		writer(b, FullyBuffered, func(w *Writer) {
			for _, l := range strs {
				w.WriteString(l)
			}
		})
	})
	b.Run("op=WriteByte/mode=full", func(b *testing.B) {
		writer(b, FullyBuffered, func(w *Writer) {
			for i := 0; i < len(text); i++ {
				w.WriteByte(text[i])
			}
		})
	})
	b.Run("op=Write/mode=line", func(b *testing.B) {
		writer(b, LineBuffered, func(w *Writer) {
			for _, l := range lines {
				w.Write(l[:len(l)-1]) // the line, then its newline: one write(2) a line
				w.Write(l[len(l)-1:])
			}
		})
	})
	b.Run("op=ReadByte/mode=full", func(b *testing.B) {
		name := filepath.Join(b.TempDir(), "text")
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		r := NewReaderPolicy(f, Policy(65536))
		benchPass(b, func() {
			f.Seek(0, io.SeekStart)
			r.Reset(f)
			for {
				if _, err := r.ReadByte(); err != nil {
					break
				}
			}
		})
	})
}
