//go:build stdiobuf_std

package os

import "bufio"

// stdioModes reports whether w, once decided, is fully buffered and
// whether it is line buffered.
func stdioModes(w *bufio.Writer) (block, line bool) {
	m := w.Info().Mode
	return m == bufio.FullyBuffered, m == bufio.LineBuffered
}

// stdioFilesOn is true in a build with -files (the generator makes it
// so, internal/osstdout): every regular file the program writes gets a
// buffer (zz_stdiobuf_files.go). Under -stdout alone it is false, and
// the code that -files adds compiles to nothing.
const stdioFilesOn = false
