//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// rawOffset is f's offset as the kernel sees it: lseek(2) on its
// descriptor.
func rawOffset(f *os.File) (int64, error) {
	return syscall.Seek(int(f.Fd()), 0, io.SeekCurrent)
}

// limitFiles lowers the process's limit of open files to n.
func limitFiles(n uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	setLimit(&lim.Cur, n)
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
}

// setLimit sets an rlimit's field, a uint64 on Linux and an int64 on
// the BSDs.
func setLimit[T int64 | uint64](p *T, n uint64) { *p = T(n) }
