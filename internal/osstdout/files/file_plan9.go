//go:build stdiobuf_std

// This file is merged into package os's file_plan9.go by `stdiobuf
// build -files`: the error of an open that found no descriptor left
// (zz_stdiobuf_open.go); Plan 9 names one kind only.

package os

import "syscall"

// stdioNoDescriptor reports whether err, an open's, says no descriptor
// was left in the process.
func stdioNoDescriptor(err error) bool { return err == syscall.EMFILE }
