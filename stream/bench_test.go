package stream

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
)

// The bufio-vs-stream benchmarks: the same in-memory work through each
// package, as sub-benchmarks impl=bufio and impl=stream, so that
//
//	go test -run '^$' -bench . -count 10 ./stream/ | benchstat -col /impl -
//
// compares them. Over a strings.Reader and io.Discard both get bufio's
// 4096-byte buffers; the methods are called directly, not through an
// interface, so inlining is as in a real program.

// benchText is about 1 MiB of lines of random printable text, 0 to 160
// bytes long (the seed input's shape, scaled down).
var benchText = sync.OnceValue(func() string {
	rng := rand.New(rand.NewPCG(2, 3))
	var s strings.Builder
	for s.Len() < 1<<20 {
		for range rng.IntN(161) {
			s.WriteByte(byte(' ' + rng.IntN(95)))
		}
		s.WriteByte('\n')
	}
	return s.String()
})

// benchLines is benchText split in lines, newlines kept.
var benchLines = sync.OnceValue(func() [][]byte {
	return bytes.SplitAfter([]byte(benchText()), []byte("\n"))
})

// benchPass runs pass once per iteration, counting benchText's bytes.
func benchPass(b *testing.B, pass func()) {
	b.SetBytes(int64(len(benchText())))
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
}

// benchReaders runs a pass over benchText with a Reader of each package.
func benchReaders(b *testing.B, bufioPass func(*bufio.Reader), streamPass func(*Reader)) {
	src := strings.NewReader("")
	br, sr := bufio.NewReader(src), NewReader(src)
	b.Run("impl=bufio", func(b *testing.B) {
		benchPass(b, func() { src.Reset(benchText()); br.Reset(src); bufioPass(br) })
	})
	b.Run("impl=stream", func(b *testing.B) {
		benchPass(b, func() { src.Reset(benchText()); sr.Reset(src); streamPass(sr) })
	})
}

// benchWriters runs a pass writing benchText with a Writer of each
// package to io.Discard, and flushes it.
func benchWriters(b *testing.B, bufioPass func(*bufio.Writer), streamPass func(*Writer)) {
	bw, sw := bufio.NewWriter(io.Discard), NewWriter(io.Discard)
	b.Run("impl=bufio", func(b *testing.B) { benchPass(b, func() { bufioPass(bw); bw.Flush() }) })
	b.Run("impl=stream", func(b *testing.B) { benchPass(b, func() { streamPass(sw); sw.Flush() }) })
}

func BenchmarkReadSlice(b *testing.B) {
	benchReaders(b, func(r *bufio.Reader) {
		for _, err := r.ReadSlice('\n'); err == nil; _, err = r.ReadSlice('\n') {
		}
	}, func(r *Reader) {
		for _, err := r.ReadSlice('\n'); err == nil; _, err = r.ReadSlice('\n') {
		}
	})
}

func BenchmarkReadByte(b *testing.B) {
	benchReaders(b, func(r *bufio.Reader) {
		for _, err := r.ReadByte(); err == nil; _, err = r.ReadByte() {
		}
	}, func(r *Reader) {
		for _, err := r.ReadByte(); err == nil; _, err = r.ReadByte() {
		}
	})
}

func BenchmarkReadString(b *testing.B) {
	benchReaders(b, func(r *bufio.Reader) {
		for _, err := r.ReadString('\n'); err == nil; _, err = r.ReadString('\n') {
		}
	}, func(r *Reader) {
		for _, err := r.ReadString('\n'); err == nil; _, err = r.ReadString('\n') {
		}
	})
}

// BenchmarkWriteLines writes benchText a line at a time: small Writes.
func BenchmarkWriteLines(b *testing.B) {
	lines := benchLines()
	benchWriters(b, func(w *bufio.Writer) {
		for _, l := range lines {
			w.Write(l)
		}
	}, func(w *Writer) {
		for _, l := range lines {
			w.Write(l)
		}
	})
}

func BenchmarkWriteByte(b *testing.B) {
	text := benchText()
	benchWriters(b, func(w *bufio.Writer) {
		for i := range len(text) {
			w.WriteByte(text[i])
		}
	}, func(w *Writer) {
		for i := range len(text) {
			w.WriteByte(text[i])
		}
	})
}

func BenchmarkWriteString(b *testing.B) {
	text := benchText()
	benchWriters(b, func(w *bufio.Writer) {
		for l := range strings.Lines(text) {
			w.WriteString(l)
		}
	}, func(w *Writer) {
		for l := range strings.Lines(text) {
			w.WriteString(l)
		}
	})
}

// BenchmarkWriteRune writes benchText's bytes as runes, each turned into
// a rune of two bytes, so that no rune is ASCII.
func BenchmarkWriteRune(b *testing.B) {
	text := benchText()
	benchWriters(b, func(w *bufio.Writer) {
		for i := range len(text) {
			w.WriteRune(rune(text[i]) + 0x80)
		}
	}, func(w *Writer) {
		for i := range len(text) {
			w.WriteRune(rune(text[i]) + 0x80)
		}
	})
}

// BenchmarkWriteLinesMode writes benchText a line at a time through a
// line-buffered and an unbuffered Writer: a write(2) per line in both,
// to io.Discard. bufio has no such modes; there is no impl=bufio.
func BenchmarkWriteLinesMode(b *testing.B) {
	lines := benchLines()
	for _, mode := range []Mode{LineBuffered, Unbuffered} {
		b.Run("mode="+mode.String(), func(b *testing.B) {
			w := NewWriter(io.Discard)
			if err := w.Setvbuf(mode, 0); err != nil {
				b.Fatal(err)
			}
			benchPass(b, func() {
				for _, l := range lines {
					w.Write(l)
				}
				w.Flush()
			})
		})
	}
}

func BenchmarkScannerLines(b *testing.B) {
	src := strings.NewReader("")
	b.Run("impl=bufio", func(b *testing.B) {
		benchPass(b, func() {
			src.Reset(benchText())
			for s := bufio.NewScanner(src); s.Scan(); {
			}
		})
	})
	b.Run("impl=stream", func(b *testing.B) {
		benchPass(b, func() {
			src.Reset(benchText())
			for s := NewScanner(src); s.Scan(); {
			}
		})
	})
}

// The Reset benchmarks: a Reset and one byte read or written, the work of
// a program that reuses one Reader or Writer for many short streams. Over
// memory both packages only reuse the buffer; over a file stream also
// decides the buffering again (one fstat) and must allocate nothing.

// benchResetReaders resets a Reader of each package to r and reads a
// byte, after rewind.
func benchResetReaders(b *testing.B, r io.Reader, rewind func()) {
	br, sr := bufio.NewReader(r), NewReader(r)
	b.Run("impl=bufio", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rewind()
			br.Reset(r)
			br.ReadByte()
		}
	})
	b.Run("impl=stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rewind()
			sr.Reset(r)
			sr.ReadByte()
		}
	})
}

// benchResetWriters resets a Writer of each package to w and writes a
// byte, which the next Reset drops.
func benchResetWriters(b *testing.B, w io.Writer) {
	bw, sw := bufio.NewWriter(w), NewWriter(w)
	b.Run("impl=bufio", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bw.Reset(w)
			bw.WriteByte('x')
		}
	})
	b.Run("impl=stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sw.Reset(w)
			sw.WriteByte('x')
		}
	})
}

// benchFile is a temporary file holding a line.
func benchFile(b *testing.B) *os.File {
	f, err := os.CreateTemp(b.TempDir(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	if _, err := f.WriteString("some text\n"); err != nil {
		b.Fatal(err)
	}
	return f
}

func BenchmarkResetReader(b *testing.B) {
	src := strings.NewReader("some text\n")
	benchResetReaders(b, src, func() { src.Seek(0, io.SeekStart) })
}

func BenchmarkResetReaderFile(b *testing.B) {
	f := benchFile(b)
	benchResetReaders(b, f, func() { f.Seek(0, io.SeekStart) })
}

func BenchmarkResetWriter(b *testing.B) { benchResetWriters(b, io.Discard) }

func BenchmarkResetWriterFile(b *testing.B) { benchResetWriters(b, benchFile(b)) }
