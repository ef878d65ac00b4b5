//go:build !unix

package stream

// fstat is not available here: every descriptor is treated as one whose
// fstat failed (BUFSIZ under the blksize and bufsiz policies).
func fstat(fd uintptr) *fileStat { return nil }
