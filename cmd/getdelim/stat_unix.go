//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// blksize is st_blksize of a file's fstat: head reads a regular file no
// larger than this to the end rather than trusting its size.
func blksize(st fs.FileInfo) int64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int64(s.Blksize)
	}
	return 0
}
