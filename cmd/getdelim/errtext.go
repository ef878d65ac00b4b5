package main

import (
	"errors"
	"syscall"
)

// errorText returns the text strerror(3) gives for the system error inside
// err ("No space left on device"), or err's own text if it holds none:
// what GNU tools print after their message. Go's texts are glibc's with
// the first letter in lower case.
func errorText(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	if s != "" && 'a' <= s[0] && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
