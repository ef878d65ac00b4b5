package stream_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	bufio "github.com/stdiobuf/stdiobuf/stream"
)

// longest is code written for Go's bufio. Moving it to stream takes one
// line, the import above: the types, methods, SplitFuncs and error values
// are bufio's. Over a file or a pipe the streams are then buffered as
// glibc buffers a FILE; over anything else, as here, nothing changes.
func longest(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Split(bufio.ScanWords)
	best := ""
	for sc.Scan() {
		if len(sc.Text()) > len(best) {
			best = sc.Text()
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	out := bufio.NewWriter(w)
	fmt.Fprintf(out, "longest word: %s (%d bytes)\n", best, len(best))
	return out.Flush()
}

// The same program with "bufio" imported as usual prints the same.
func Example_bufioMigration() {
	text := "a drop-in replacement for bufio\nwith glibc's buffering\n"
	if err := longest(strings.NewReader(text), os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// longest word: replacement (11 bytes)
}
