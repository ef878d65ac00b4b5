//go:build stdiobuf_std

// This template is merged into package time's sys_unix.go, under its
// build constraints: the generator sends that file's calls of
// syscall.Open, syscall.Read and syscall.Close (time's open, read,
// preadn and closefd) to the functions here, which make the same call
// and tell package os of it (zz_stdiobuf_zone.go).

package time

import "syscall"

// stdioZoneOpen is syscall.Open, telling os of the descriptor opened.
func stdioZoneOpen(name string, mode int, perm uint32) (int, error) {
	fd, err := syscall.Open(name, mode, perm)
	if h := stdioZoneHooks.opened; h != nil && err == nil {
		h(fd, name)
	}
	return fd, err
}

// stdioZoneRead is syscall.Read, one read(2), counted.
func stdioZoneRead(fd int, p []byte) (int, error) {
	n, err := syscall.Read(fd, p)
	if h := stdioZoneHooks.read; h != nil {
		h(fd, n)
	}
	return n, err
}

// stdioZoneClose is syscall.Close, telling os first: once closed, the
// number may be another file's.
func stdioZoneClose(fd int) error {
	if h := stdioZoneHooks.closed; h != nil {
		h(fd)
	}
	return syscall.Close(fd)
}
