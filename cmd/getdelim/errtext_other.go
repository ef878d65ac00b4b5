//go:build !linux && !plan9

package main

import "syscall"

// libcErrorText: off Linux, Go's texts are taken as the C library's.
func libcErrorText(syscall.Errno) (string, bool) { return "", false }
