//go:build stdiobuf_std

// This file is added to package syscall by `stdiobuf build -stdout`: the
// statements the generator inserts into Dup2, Dup3, Close, ForkExec,
// StartProcess and Exec (internal/osstdout's insertions) call these, so
// that what package os holds in standard output's buffer is written
// before the descriptor is replaced, closed or handed to a new program,
// and so that a fatal signal whose death waits for that flush kills the
// program before it goes on.

package syscall

// runtime_stdioFlush writes out what os has buffered for standard output,
// waiting for its lock, then dies of a fatal signal whose death waits for
// a flush; it does nothing in a program without package os.
// Implemented in runtime (zz_stdiobuf_hooks.go there).
func runtime_stdioFlush()

// runtime_stdioTryFlush is runtime_stdioFlush, giving up if the lock
// stays taken (a writer stuck in write(2)): before Exec and a Close of
// descriptor 1, which must not wait for good.
func runtime_stdioTryFlush()

// runtime_stdioHeard gives back package os's read buffers (-files):
// Wait4 defers it, since a child waited for may have changed a file.
// Implemented in runtime.
func runtime_stdioHeard()

// runtime_stdioBeforeExec is runtime_stdioTryFlush for Exec: from then
// until runtime_stdioAfterExec, a fatal signal kills at once, since the
// new program would not see one whose death waits.
func runtime_stdioBeforeExec()

// runtime_stdioAfterExec runs when Exec returns: the execve failed.
func runtime_stdioAfterExec()
