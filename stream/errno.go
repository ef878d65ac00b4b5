//go:build !plan9

package stream

import (
	"errors"
	"syscall"
)

// errnoString returns the text of the syscall.Errno inside err, and
// whether there is one. Plan 9 has no Errno (errno_plan9.go).
func errnoString(err error) (string, bool) {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "", false
	}
	return errno.Error(), true
}
