//go:build !linux

// The part of the platform seam (see sys_linux.go) that only Linux
// answers: elsewhere each function gives the answer that changes nothing.

package stream

// generatedFS is false: read-ahead skips empty files (a BSD's procfs
// reports size 0), and tells no file system apart.
func generatedFS(fd uintptr) bool { return false }
