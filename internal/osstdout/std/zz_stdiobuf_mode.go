//go:build stdiobuf_std

package os

import "bufio"

// stdioLineBuffered reports whether w, once decided, is line buffered.
func stdioLineBuffered(w *bufio.Writer) bool { return w.Info().Mode == bufio.LineBuffered }
