// Command bufioloop is the head benchmark's loop on Go's standard bufio: what
// a Go program gets without stdiobuf. It copies the first N records of standard input
// to standard output with bufio.Reader.ReadSlice and bufio.Writer.Write.
//
// Usage:
//
//	bufioloop [-n LINES] [-d DELIM] [-i BYTES] [-o BYTES]
//
// -i and -o set the reader's and writer's sizes; both default to 4096,
// bufio's default. A record longer than the reader's buffer comes back from
// ReadSlice in pieces (bufio.ErrBufferFull); each piece is written as it
// comes, so any record length works without allocating.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bufioloop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lines := fs.Int64("n", -1, "copy at most this many records (default: all)")
	delim := fs.String("d", "\n", "record delimiter, one byte")
	isize := fs.Int("i", 4096, "reader buffer size in bytes")
	osize := fs.Int("o", 4096, "writer buffer size in bytes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "bufioloop: unexpected argument %q\n", fs.Arg(0))
		return 2
	case len(*delim) != 1:
		fmt.Fprintf(stderr, "bufioloop: -d %q: want one byte\n", *delim)
		return 2
	case *isize < 1 || *osize < 1:
		fmt.Fprintf(stderr, "bufioloop: -i %d -o %d: sizes must be positive\n", *isize, *osize)
		return 2
	}
	if *lines < 0 {
		*lines = -1
	}
	w := bufio.NewWriterSize(stdout, *osize)
	_, err := copyRecords(w, bufio.NewReaderSize(stdin, *isize), (*delim)[0], *lines)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintf(stderr, "bufioloop: %v\n", err)
		return 1
	}
	return 0
}

// copyRecords copies up to n records (all of them if n < 0) from r to w and
// returns how many it copied; a last record without a delimiter counts.
func copyRecords(w *bufio.Writer, r *bufio.Reader, delim byte, n int64) (int64, error) {
	var copied int64
	for n < 0 || copied < n {
		piece, err := r.ReadSlice(delim)
		if len(piece) > 0 {
			if _, werr := w.Write(piece); werr != nil {
				return copied, werr
			}
		}
		switch {
		case err == nil:
			copied++
		case errors.Is(err, bufio.ErrBufferFull):
			// The same record goes on in the next piece.
		case err == io.EOF:
			if len(piece) > 0 {
				copied++
			}
			return copied, nil
		default:
			return copied, err
		}
	}
	return copied, nil
}
