package main

import (
	"strconv"
	"strings"
	"syscall"
)

// ehwpoison is Linux's EHWPOISON, which Go's table has no text for.
const ehwpoison = syscall.Errno(133)

// libcErrorText returns glibc's strerror text for the errnos whose text
// is not Go's capitalized: EHWPOISON, and numbers with no name, which Go
// calls "errno 41" and glibc "Unknown error 41".
func libcErrorText(errno syscall.Errno) (string, bool) {
	if errno == ehwpoison {
		return "Memory page has hardware error", true
	}
	if strings.HasPrefix(errno.Error(), "errno ") {
		return "Unknown error " + strconv.Itoa(int(errno)), true
	}
	return "", false
}
