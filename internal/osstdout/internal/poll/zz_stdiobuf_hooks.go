//go:build stdiobuf_std

// This file is added to package internal/poll by `stdiobuf build -files`:
// the statements the generator inserts into FD's reads and writes
// (internal/osstdout's pollHooks) call this when the FD is a socket, so
// that a peer that hears from the program finds its files complete.

package poll

// runtime_stdioFlushFiles writes out every file package os buffers; it
// does nothing in a program without package os. Implemented in runtime
// (zz_stdiobuf_files.go there).
func runtime_stdioFlushFiles()
