//go:build stdiobuf_std

// This file is added to package runtime by `stdiobuf build -stdout`. The
// runtime cannot import os, where the buffered standard output lives, so
// os hands it, at init, the functions that flush it (zz_stdiobuf_hooks.go
// there), and the statements the generator inserts (internal/osstdout's
// insertions) call them where the program ends without exit hooks or
// shows its output in another way. A program that does not link os has
// none of them, and every hook does nothing.

package runtime

import (
	"internal/abi"
	"internal/runtime/atomic"
	_ "unsafe" // for go:linkname
)

// stdioHooks are package os's functions, set once by os's init.
var stdioHooks struct {
	flush    func() // write out what is buffered, waiting for the lock
	tryFlush func() // the same, giving up if the lock stays taken
	// finish is tryFlush, leaving standard output unbuffered under the
	// same hold of the lock: the program goes on for a while (other
	// goroutines, a fatal signal's death on its way) and then ends
	// without exit hooks.
	finish func()
	// beforePrint flushes if standard output and standard error are
	// the same file.
	beforePrint func()
}

// stdioFinishing is 0 before the first finish, 1 while it runs, 2 once it
// has returned; stdioFinisher is the goroutine that runs it.
var (
	stdioFinishing atomic.Uint32
	stdioFinisher  guintptr
)

// stdioFinishWait is how long a second goroutine ending the program (two
// panics, two goroutines finding the same concurrent map write) waits for
// the first's finish before it goes on to print and exit, in
// nanoseconds: the first's flush waits this long at most for the lock.
const stdioFinishWait = 1e9

// stdioSignals are the unix side's (zz_stdiobuf_signal in
// signal_unix.go), set by its init; nil elsewhere.
var stdioSignals struct {
	register func() // start the goroutine that flushes before a fatal signal's death
	start    func() // start the thread that wakes it
	exiting  func() // if a fatal signal's death is under way, flush and die of it
}

// stdioStarted is 0 until os's first buffer is about to take a byte, 1
// while os_stdioStart starts stdioSignals.start, 2 once it has.
var stdioStarted atomic.Uint32

//go:linkname os_stdioRegister os.runtime_stdioRegister
func os_stdioRegister(flush, tryFlush, finish, beforePrint func()) {
	stdioHooks.flush = flush
	stdioHooks.tryFlush = tryFlush
	stdioHooks.finish = finish
	stdioHooks.beforePrint = beforePrint
	if stdioSignals.register != nil {
		stdioSignals.register()
	}
}

// os_stdioStart starts, once, what a fatal signal's flush needs
// (stdioSignals.start); os calls it before a buffer takes its first
// byte, so that a program that never holds one (it writes whole files,
// or nothing) pays for no thread. A caller that finds the start under
// way waits for it: no buffer holds a byte before a fatal signal's death
// can wait for the flush.
//
//go:linkname os_stdioStart os.runtime_stdioStart
func os_stdioStart() {
	if stdioStarted.Load() == 2 {
		return
	}
	if stdioStarted.CompareAndSwap(0, 1) {
		if stdioSignals.start != nil {
			stdioSignals.start()
		}
		stdioStarted.Store(2)
		return
	}
	for stdioStarted.Load() != 2 {
		osyield()
	}
}

//go:linkname os_stdioExiting os.runtime_stdioExiting
func os_stdioExiting() { stdioExiting() }

// syscall_stdioFlush flushes, then dies of a fatal signal whose death
// waits for a flush: a plain program would not have gone on to replace
// descriptor 1 or start a child. A signal that arrives after the check
// is one that arrived just after the call.
//
//go:linkname syscall_stdioFlush syscall.runtime_stdioFlush
func syscall_stdioFlush() {
	if f := stdioHooks.flush; f != nil {
		f()
	}
	stdioExiting()
}

//go:linkname syscall_stdioTryFlush syscall.runtime_stdioTryFlush
func syscall_stdioTryFlush() {
	if f := stdioHooks.tryFlush; f != nil {
		f()
	}
	stdioExiting()
}

// stdioExecs counts the calls of syscall.Exec under way. While it is not
// 0, a fatal signal kills at once (stdioSignalDeath): what was buffered
// is out, and a death deferred past the execve would be lost, where
// without the buffer the new program would get the signal or never run.
var stdioExecs atomic.Int32

// syscall_stdioBeforeExec runs first in syscall.Exec: it flushes, then
// counts the call, then dies of a fatal signal that came before, in that
// order, so that a signal arriving during the flush is seen either here
// or by the handler.
//
//go:linkname syscall_stdioBeforeExec syscall.runtime_stdioBeforeExec
func syscall_stdioBeforeExec() {
	if f := stdioHooks.tryFlush; f != nil {
		f()
	}
	stdioExecs.Add(1)
	stdioExiting()
}

// syscall_stdioAfterExec runs when syscall.Exec returns, having failed.
//
//go:linkname syscall_stdioAfterExec syscall.runtime_stdioAfterExec
func syscall_stdioAfterExec() { stdioExecs.Add(-1) }

// stdioExiting dies of a fatal signal whose flush is under way; the
// program was about to end in another way (exit, a panic), which a
// program without the buffer would not have reached.
func stdioExiting() {
	if f := stdioSignals.exiting; f != nil {
		f()
	}
}

// stdioFinish runs os's finish once. Another goroutine that ends the
// program meanwhile waits for it, so that it does not exit before the
// output is out; the goroutine running it (a panic inside it) does not.
func stdioFinish() {
	f := stdioHooks.finish
	if f == nil {
		return
	}
	gp := getg()
	if stdioFinishing.CompareAndSwap(0, 1) {
		stdioFinisher.set(gp)
		f()
		stdioFinishing.Store(2)
		return
	}
	if stdioFinisher.ptr() == gp {
		return
	}
	for deadline := nanotime() + stdioFinishWait; stdioFinishing.Load() == 1 && nanotime() < deadline; {
		timeSleep(1e6)
	}
}

// stdioPanicking runs in gopanic once the deferred calls have run and
// the panic is not recovered, before fatalpanic prints it.
func stdioPanicking() {
	stdioExiting()
	stdioFinish()
}

// stdioGoexit runs in Goexit after the deferred calls: main's Goexit
// leaves the other goroutines running and the program then ends with a
// fatal error, without exit hooks. A goroutine of a thread C created (a
// cgo callback) has no start function.
func stdioGoexit() {
	if f := findfunc(getg().startpc); f.valid() && f.funcID == abi.FuncID_runtime_main {
		stdioFinish()
	}
}

// stdioFatal runs first in fatal (concurrent map writes, ...), which
// prints and exits without exit hooks.
func stdioFatal() {
	if stdioCanFlush() {
		stdioFatalFlush()
	}
}

// stdioFatalFlush is stdioFatal's flush. Some callers of fatal forbid
// write barriers (cgoBindM, on g0), and the compiler checks every static
// callee of theirs; they are never on a user goroutine, which
// stdioCanFlush asks for, as the goPanic functions check the conditions
// under which they may run.
//
//go:yeswritebarrierrec
func stdioFatalFlush() {
	stdioExiting()
	stdioFinish()
}

// stdioBeforePrint runs first in printlock, before the runtime's print
// and println write to standard error: when that is standard output's
// file (`go test -v` runs tests so), what the program printed before must
// come out first.
func stdioBeforePrint() {
	if f := stdioHooks.beforePrint; f != nil && stdioCanFlush() {
		f()
	}
}

// stdioExit runs first in syscall.Exit, which os.Exit calls after the
// exit hooks (they flushed) and a program may call directly.
func stdioExit() {
	stdioExiting()
	if f := stdioHooks.tryFlush; f != nil {
		f()
	}
}

// stdioCanFlush reports whether ordinary Go code, os's flush, may run:
// on a user goroutine that holds no runtime lock, is not allocating, not
// in a section that must not be preempted or grow its stack, and not
// already throwing or panicking. Where it may not (throws, fatal errors
// found by the scheduler), what is buffered is lost.
func stdioCanFlush() bool {
	gp := getg()
	mp := gp.m
	return gp == mp.curg && mp.p != 0 && mp.locks == 0 && mp.mallocing == 0 &&
		mp.preemptoff == "" && mp.printlock == 0 && mp.dying == 0 &&
		mp.throwing == throwTypeNone && !gp.throwsplit && panicking.Load() == 0
}
