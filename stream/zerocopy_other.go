package stream

import "io"

// kernelCopy would move bytes from src to dst in the kernel; this portable
// version moves none and lets the caller copy (handled is false).
func kernelCopy(dst io.Writer, src io.Reader, limit int64, c *counters) (written int64, handled bool, err error) {
	return 0, false, nil
}
