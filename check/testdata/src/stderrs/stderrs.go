// Package stderrs holds writes the analyzer must not report: to standard
// error, which no flag buffers, and in error branches of any form.
package stderrs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Standard error is never buffered, by any flag: not reported.
func warnings(xs []string) {
	for _, x := range xs {
		fmt.Fprintf(os.Stderr, "warning: %s\n", x)
		os.Stderr.WriteString(x)
	}
	var w io.Writer = os.Stderr
	for _, x := range xs {
		fmt.Fprintln(w, x)
	}
}

// A case of a type switch on an error type is an error branch.
func typeSwitch(f *os.File, errs []error) {
	for _, err := range errs {
		switch err := err.(type) {
		case *json.SyntaxError:
			fmt.Fprintf(f, "syntax error at %d\n", err.Offset)
		case nil:
			fmt.Fprintln(f, "ok") // want `fmt.Fprintln in a loop writes to f unbuffered: one system call per record; .*stdiobuf build -files`
		}
	}
}

// The body of an if that calls errors.As or errors.Is is an error branch.
func errorsAs(f *os.File, errs []error) {
	for _, err := range errs {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			fmt.Fprintf(f, "syntax error at %d\n", se.Offset)
		}
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(f, "eof")
		}
	}
}

// Standard output names -stdout, other files -files.
func flags(f *os.File, xs []int) {
	for _, x := range xs {
		fmt.Fprintln(os.Stdout, x) // want `fmt.Fprintln in a loop writes to os.Stdout unbuffered: .*, or build with stdiobuf build -stdout$`
		fmt.Fprintln(f, x)         // want `fmt.Fprintln in a loop writes to f unbuffered: .*, or build with stdiobuf build -files$`
	}
}

var _ = []any{warnings, typeSwitch, errorsAs, flags}
