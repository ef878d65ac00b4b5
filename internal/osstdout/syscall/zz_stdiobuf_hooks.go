//go:build stdiobuf_std

// This file is added to package syscall by `stdiobuf build -stdout`: the
// statements the generator inserts into Dup2, Dup3, Close, ForkExec,
// StartProcess and Exec (internal/osstdout's insertions) call these, so
// that what package os holds in standard output's buffer is written
// before the descriptor is replaced, closed or handed to a new program.

package syscall

// runtime_stdioFlush writes out what os has buffered for standard output,
// waiting for its lock; it does nothing in a program without package os.
// Implemented in runtime (zz_stdiobuf_hooks.go there).
func runtime_stdioFlush()

// runtime_stdioTryFlush is runtime_stdioFlush, giving up if the lock
// stays taken (a writer stuck in write(2)): before Exec and a Close of
// descriptor 1, which must not wait for good.
func runtime_stdioTryFlush()
