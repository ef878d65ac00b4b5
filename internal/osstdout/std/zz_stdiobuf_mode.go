//go:build stdiobuf_std

package os

import "bufio"

// stdioLineBuffered reports whether w, once decided, is line buffered.
func stdioLineBuffered(w *bufio.Writer) bool { return w.Info().Mode == bufio.LineBuffered }

// stdioFilesOn is true in a build with -files (the generator makes it
// so, internal/osstdout): every regular file the program writes gets a
// buffer (zz_stdiobuf_files.go). Under -stdout alone it is false, and
// the code that -files adds compiles to nothing.
const stdioFilesOn = false
