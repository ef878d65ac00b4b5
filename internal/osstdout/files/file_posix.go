//go:build stdiobuf_std

// This file is merged into package os's file_posix.go by `stdiobuf
// build -files`: the errors of an open that found no descriptor left,
// on the systems that name both kinds (zz_stdiobuf_open.go).

package os

import "syscall"

// stdioNoDescriptor reports whether err, an open's, says no descriptor
// was left: in the process (EMFILE) or in the system (ENFILE).
func stdioNoDescriptor(err error) bool { return err == syscall.EMFILE || err == syscall.ENFILE }
