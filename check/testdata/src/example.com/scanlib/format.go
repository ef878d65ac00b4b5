package scanlib

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Formatter formats a record, as gotestsum's EventFormatter does.
type Formatter interface {
	Format(rec string) error
}

// formatterFunc is unexported: a package that imports this one does not
// see it among this package's types.
type formatterFunc func(rec string) error

func (f formatterFunc) Format(rec string) error { return f(rec) } // want Format:`sink\(0 call=true loop=false\)`

var errBad = errors.New("bad record")

// NewFormatter returns the formatter called name over out: each writes
// or flushes once per call, in a block that returns.
func NewFormatter(out io.Writer, name string) Formatter { // want NewFormatter:`flow\(result 0 <- 0  call=true\) flow\(result 0 <- 0  call=true\)`
	switch name {
	case "plain":
		return formatterFunc(func(rec string) error {
			_, err := fmt.Fprintln(out, rec)
			return err
		})
	case "buffered":
		buf := bufio.NewWriter(out)
		return formatterFunc(func(rec string) error {
			if rec != "" {
				buf.WriteString(rec)
				return buf.Flush()
			}
			return nil
		})
	case "quiet":
		// Once: a block that returns an error ends the scan.
		return formatterFunc(func(rec string) error {
			if rec == "" {
				fmt.Fprintln(out, "empty record")
				return errBad
			}
			if rec == "?" {
				fmt.Fprintln(out, "unknown record")
				return fmt.Errorf("unknown record %q", rec)
			}
			return nil
		})
	}
	return nil
}
