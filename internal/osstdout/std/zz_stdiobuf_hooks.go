//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`, beside
// the file that buffers standard output: it hands the runtime the
// functions that flush it (the runtime's side is its zz_stdiobuf_hooks.go,
// and the statements internal/osstdout inserts into packages runtime and
// syscall), so that an unrecovered panic, main's Goexit, a fatal signal,
// the runtime's println, syscall.Dup2 onto descriptor 1, ForkExec, Exec
// and syscall.Exit see every byte written before them.

package os

import "internal/runtime/exithook"

// runtime_stdioRegister gives the runtime os's flushes (see stdioHooks
// there). Implemented in runtime.
func runtime_stdioRegister(flush, tryFlush, finish, beforePrint func())

// runtime_stdioExiting dies of a fatal signal whose death waits for a
// flush, and otherwise returns. Implemented in runtime.
func runtime_stdioExiting()

func init() {
	s := stdioOut
	if s.w == nil {
		return
	}
	runtime_stdioRegister(func() { s.flushBefore(nil) }, s.tryFlush, s.finish, s.beforePrint)
	// Hooks run last in, first out: this one, added after
	// stdioStart's, runs before the exit flush, so that a program that
	// reaches exit while a fatal signal waits for its flush dies of the
	// signal, as it would have without the buffer.
	exithook.Add(exithook.Hook{F: runtime_stdioExiting, RunOnFailure: true})
}

// finish flushes standard output and leaves it unbuffered, under one
// hold of its lock, waiting for the lock no longer than tryFlush does:
// the program goes on without exit hooks (after an unrecovered panic,
// until it exits; after main's Goexit, until the other goroutines end;
// after a fatal signal, until the signal kills it), so what other
// goroutines write from now on goes straight out, whole, as without the
// buffer. Taking the lock twice (a flush, then the switch) would let a
// busy writer fill the buffer in between, and a flush by size then write
// part of a line that the death cuts off.
func (s *stdioStream) finish() {
	if !s.lockWithin(stdioTryWait) {
		return
	}
	defer s.mu.Unlock()
	s.flushUnseen()
	s.direct = true
}

// beforePrint flushes before the runtime's print and println write to
// standard error, when that is standard output's file, as before a write
// to os.Stderr.
func (s *stdioStream) beforePrint() { s.beforeWrite(s.errf) }
