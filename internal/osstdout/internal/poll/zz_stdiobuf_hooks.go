//go:build stdiobuf_std

// This file is added to package internal/poll by `stdiobuf build
// -stdout`: the statements the generator inserts into FD's reads and
// writes (internal/osstdout's pollHooks) call these when the FD is a
// socket, so that a peer that hears from the program finds its output
// and its files complete.

package poll

// runtime_stdioBeforePeerWrite writes out everything package os buffers;
// it does nothing in a program without package os. Implemented in
// runtime (zz_stdiobuf_peers.go there).
func runtime_stdioBeforePeerWrite()

// runtime_stdioBeforePeerRead writes out the files package os buffers
// and hands standard output's flush to the runtime's goroutine: a read
// may wait for a peer, and the reader must not wait on a write(2) to one.
// Implemented in runtime.
func runtime_stdioBeforePeerRead()

// runtime_stdioAfterPeerRead gives back what package os's read buffers
// hold once a read of a socket returns: the peer may have changed a file
// before it wrote. Implemented in runtime.
func runtime_stdioAfterPeerRead()
