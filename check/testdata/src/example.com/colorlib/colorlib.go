// Package colorlib holds standard output and standard error in package
// variables, as fatih/color's Output and Error do.
package colorlib

import (
	"io"
	"os"
)

// NewStdout returns standard output, as colorable's NewColorableStdout
// does where no escape sequence needs translating.
func NewStdout() io.Writer { return os.Stdout } // want NewStdout:`flow\(result 0 <- -1 os.Stdout call=false\)`

// NewStderr returns standard error.
func NewStderr() io.Writer { return os.Stderr }

var (
	Output = NewStdout() // want Output:`holds os.Stdout`
	Error  = NewStderr()
	Stdout = os.Stdout // want Stdout:`holds os.Stdout`
)
