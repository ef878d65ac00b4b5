package main

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// rawOffset is f's offset as the kernel sees it: SetFilePointerEx on its
// handle, moving it by 0.
func rawOffset(f *os.File) (int64, error) {
	return syscall.Seek(syscall.Handle(f.Fd()), 0, io.SeekCurrent)
}

// limitFiles fails: Windows has no limit of open handles to lower.
func limitFiles(n uint64) error {
	return errors.New("no limit of open files on Windows")
}
