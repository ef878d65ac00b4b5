//go:build stdiobuf_std

package os

import "bufio"

// stdioModes reports whether w, once decided, is fully buffered and
// whether it is line buffered.
func stdioModes(w *bufio.Writer) (block, line bool) {
	m := w.Info().Mode
	return m == bufio.FullyBuffered, m == bufio.LineBuffered
}
