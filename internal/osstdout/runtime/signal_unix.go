//go:build stdiobuf_std

// This template is merged into package runtime's signal_unix.go by
// `stdiobuf build -stdout` (its declarations appended, its imports
// added): the unix side of zz_stdiobuf_hooks.go.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// stdioSignalLimit is how long a fatal signal's death waits for the flush,
// in nanoseconds: as long as exit waits for the lock of a writer stuck in
// write(2).
const stdioSignalLimit = 1e9

// stdioSig is the state of a flush before a fatal signal's death. A
// signal handler cannot run Go code, so sighandler defers the death
// (stdioSignalDeath) and wakes a thread of its own, started by os's init,
// like sysmon without a P; that thread readies a parked system goroutine,
// which flushes, and dies of the signal once it has, or once
// stdioSignalLimit has passed.
//
// Invariant: pending is 0 until the first fatal signal, then that signal
// for good; g is set before parked is.
var stdioSig struct {
	started atomic.Bool // the thread and the goroutine exist
	pending atomic.Uint32
	parked  atomic.Bool // g waits in gopark to be readied
	g       *g          // the goroutine that flushes
	wake    note        // sighandler wakes the thread
	done    note        // g has flushed
}

func init() {
	stdioSignals.start = stdioSignalStart
	stdioSignals.exiting = stdioSignalExiting
}

// stdioSignalStart starts the thread and the goroutine. Only on Linux:
// notewakeup, which sighandler calls, is not async-signal-safe on every
// system (darwin's sigsend uses sigNoteWakeup), and the rest is tested
// there; elsewhere a fatal signal kills at once, as without -stdout.
func stdioSignalStart() {
	if GOOS != "linux" {
		return
	}
	go stdioSignalFlusher()
	systemstack(func() { newm(stdioSignalWatch, nil, -1) })
	stdioSig.started.Store(true)
}

// stdioSignalDeath is called by sighandler in place of dieFromSignal for a
// signal whose default action kills and that the program neither caught
// nor ignored. It reports whether the death is deferred to the flush;
// a second fatal signal kills at once.
//
//go:nowritebarrierrec
func stdioSignalDeath(sig uint32) bool {
	if !stdioSig.started.Load() || !stdioSig.pending.CompareAndSwap(0, sig) {
		return false
	}
	notewakeup(&stdioSig.wake)
	return true
}

// stdioSignalWatch runs on its own M, without a P, as sysmon does, and is
// not counted by the deadlock check.
func stdioSignalWatch() {
	lock(&sched.lock)
	sched.nmsys++
	checkdead()
	unlock(&sched.lock)
	notesleep(&stdioSig.wake)
	// The goroutine may not have run yet, in a program that has done
	// little since its start.
	deadline := nanotime() + stdioSignalLimit
	for !stdioSig.parked.Load() && nanotime() < deadline {
		usleep(100)
	}
	if stdioSig.parked.Load() {
		var list gList
		list.push(stdioSig.g)
		injectglist(&list)
		// A negative time would make notetsleep wait for good.
		if left := deadline - nanotime(); left > 0 {
			notetsleep(&stdioSig.done, left)
		}
	}
	dieFromSignal(stdioSig.pending.Load())
}

// stdioSignalFlusher is the goroutine that flushes, and leaves standard
// output unbuffered until the death (finish). It is a system
// goroutine (it starts in package runtime): runtime.NumGoroutine,
// tracebacks and the deadlock check leave it out.
func stdioSignalFlusher() {
	stdioSig.g = getg()
	gopark(stdioSignalParked, nil, waitReasonZero, traceBlockSystemGoroutine, 1)
	stdioHooks.finish()
	notewakeup(&stdioSig.done)
	gopark(nil, nil, waitReasonZero, traceBlockForever, 1) // the watch thread kills the process
}

func stdioSignalParked(*g, unsafe.Pointer) bool {
	stdioSig.parked.Store(true)
	return true
}

// stdioSignalExiting, when a fatal signal's death is under way, flushes
// and dies of it.
func stdioSignalExiting() {
	if sig := stdioSig.pending.Load(); sig != 0 {
		stdioHooks.tryFlush()
		dieFromSignal(sig)
	}
}
