//go:build !plan9

package main

import (
	"errors"
	"syscall"
)

// errorText returns what gnulib's error() prints after a message for err:
// strerror(3)'s text for the system error inside err ("No space left on
// device"), or err's own text if it holds none. Go's texts for an errno
// are the C library's with the first letter in lower case; libcErrorText
// supplies the ones where the two differ.
func errorText(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	if s, ok := libcErrorText(errno); ok {
		return s
	}
	s := errno.Error()
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
