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

// stdioSignalStuck is how long a fatal signal's death waits, in
// nanoseconds, for a flusher that cannot be scheduled: while it has not
// started, every P runs a goroutine and none of them has gone through the
// scheduler since (a loop without preemption points under
// GODEBUG=asyncpreemptoff=1). sysmon asks a goroutine that runs for 10 ms
// to yield, so a scheduler that makes progress moves within that. Once
// stuck, the wait turns asynchronous preemption back on and waits as
// long again (stdioSignalPreempt).
const stdioSignalStuck = 100e6

// The si_code values of a signal another process sent with kill(2) or
// sigqueue(3) on Linux, the only system where the flush runs.
const (
	stdioSIUser  = 0
	stdioSIQueue = -1
)

// stdioSig is the state of a flush before a fatal signal's death. A
// signal handler cannot run Go code, so sighandler defers the death
// (stdioSignalDeath) and wakes a thread of its own, started before os's
// first buffer takes a byte (os_stdioStart), like sysmon without a P;
// that thread readies a parked system goroutine, which flushes, and dies
// of the signal once it has, once
// stdioSignalLimit has passed, or once the scheduler has stood still
// without running it for stdioSignalStuck, twice. Until then the thread
// is also the bound's clock (stdioBoundDue).
//
// Invariant: pending is 0 until the first fatal signal, then that signal
// for good; g is set before parked is; running is set once g has been
// readied and runs.
var stdioSig struct {
	started atomic.Bool // the thread and the goroutine exist
	pending atomic.Uint32
	parked  atomic.Bool // g waits in gopark to be readied
	running atomic.Bool // g runs, readied by the thread
	g       *g          // the goroutine that flushes
	done    note        // g has flushed
}

func init() {
	stdioSignals.register = stdioSignalRegister
	stdioSignals.start = stdioSignalStart
	stdioSignals.exiting = stdioSignalExiting
}

// stdioSignalRegister starts the goroutine, parked, in os's init: a
// goroutine started later, by one in a testing/synctest bubble, would
// belong to the bubble. Only on Linux: notewakeup, which sighandler
// calls, is not async-signal-safe on every system (darwin's sigsend
// uses sigNoteWakeup), and the rest is tested there; elsewhere a fatal
// signal kills at once, as without -stdout.
func stdioSignalRegister() {
	if GOOS == "linux" {
		go stdioSignalFlusher()
	}
}

// stdioSignalStart starts the thread, which from then on keeps the
// bound's deadlines too, and lets a fatal signal's death wait for the
// flush.
func stdioSignalStart() {
	if GOOS != "linux" {
		return
	}
	stdioBound.watched.Store(true)
	systemstack(func() { newm(stdioSignalWatch, nil, -1) })
	stdioSig.started.Store(true)
}

// stdioSignalDeath is called by sighandler in place of dieFromSignal for a
// signal whose default action kills and that the program neither caught
// nor ignored. It reports whether the death is deferred to the flush;
// a second fatal signal kills at once, and so does one that arrives while
// syscall.Exec runs, which flushed before it (stdioExecs): deferred, it
// would be lost with the program that receives it.
//
//go:nowritebarrierrec
func stdioSignalDeath(sig uint32) bool {
	if !stdioSig.started.Load() || !stdioSig.pending.CompareAndSwap(0, sig) {
		return false
	}
	// The CAS comes before this load, and syscall.Exec's increment
	// before its load of pending: one of them sees the other.
	if stdioExecs.Load() != 0 {
		return false
	}
	stdioWatchWake()
	return true
}

// stdioSignalAbort is called by sighandler before it reports a signal
// that ends the program with a goroutine dump (startpanic_m), and no dump
// is under way. For a SIGABRT another process sent (systemd's watchdog
// does; si_code SI_USER or SI_QUEUE), which the program neither caught
// nor ignored, it defers the dump and the exit to the flush as
// stdioSignalDeath defers a death, and reports whether it did. The
// runtime's own aborts never come here: they raise SIGABRT from the
// thread itself (SI_TKILL) after marking the signal unhandled, and C's
// abort(3) raises it with tgkill too.
//
//go:nowritebarrierrec
func stdioSignalAbort(sig uint32, c *sigctxt) bool {
	if sig != _SIGABRT {
		return false
	}
	if code := int32(c.sigcode()); code != stdioSIUser && code != stdioSIQueue {
		return false
	}
	if !stdioSignalDeath(sig) {
		return false
	}
	// sighandler marked the M throwing before it called this.
	mp := getg().m
	mp.throwing = throwTypeNone
	mp.caughtsig.set(nil)
	return true
}

// stdioSignalWatch runs on its own M, without a P, as sysmon does, and is
// not counted by the deadlock check. It sleeps until a fatal signal, and
// meanwhile keeps the bound's deadlines.
func stdioSignalWatch() {
	lock(&sched.lock)
	sched.nmsys++
	checkdead()
	unlock(&sched.lock)
	for {
		noteclear(&stdioWatch.wake)
		stdioWatch.sleeping.Store(1)
		// sleeping is set before pending is loaded, and a handler sets
		// pending before it tries sleeping: either this finds the
		// signal, or the handler wakes the sleep below.
		if stdioSig.pending.Load() != 0 {
			break
		}
		ns := stdioBoundDue()
		if ns == 0 || !notetsleep(&stdioWatch.wake, ns) {
			if !stdioWatch.sleeping.CompareAndSwap(1, 0) {
				notesleep(&stdioWatch.wake)
			}
		}
	}
	stdioSignalAwait(nanotime() + stdioSignalLimit)
	stdioSignalDie(stdioSig.pending.Load())
}

// stdioSignalAwait readies the goroutine that flushes and waits until it
// has flushed, until deadline, or until the scheduler has stood still for
// stdioSignalStuck while the goroutine has not run, a second time if the
// first made it preempt the goroutines. The goroutine may not have parked
// yet, in a program that has done little since its start.
func stdioSignalAwait(deadline int64) {
	readied, preempted := false, false
	ticks, _ := stdioSchedTicks()
	still := nanotime()
	for {
		if !readied && stdioSig.parked.Load() {
			stdioInject(stdioSig.g)
			readied = true
		}
		if readied {
			if notetsleep(&stdioSig.done, 1e6) {
				return
			}
		} else {
			usleep(100)
		}
		now := nanotime()
		if now >= deadline {
			return
		}
		if stdioSig.running.Load() {
			continue // stuck in write(2) at worst: wait for the deadline
		}
		t, busy := stdioSchedTicks()
		if !busy || t != ticks {
			ticks, still = t, now
		} else if now-still >= stdioSignalStuck {
			if preempted || !stdioSignalPreempt() {
				return
			}
			preempted, still = true, now
		}
	}
}

// stdioSignalPreempt turns asynchronous preemption back on where
// GODEBUG=asyncpreemptoff=1 turned it off, for the rest of the program's
// life (until the death, stdioSignalLimit at most), and asks the
// goroutine on every P to yield, so that a loop without preemption points
// lets the flusher run. It reports whether it did; not where the runtime
// cannot preempt so, or turned it off itself (gccheckmark).
func stdioSignalPreempt() bool {
	if !preemptMSupported || debug.asyncpreemptoff == 0 || debug.gccheckmark > 0 {
		return false
	}
	atomic.Storeint32(&debug.asyncpreemptoff, 0)
	lock(&allpLock)
	for _, pp := range allp {
		if pp.status == _Prunning {
			preemptone(pp)
		}
	}
	unlock(&allpLock)
	return true
}

// stdioSchedTicks returns the sum of the Ps' scheduler counts, and whether
// every P runs a goroutine. Read without the Ps' owners, as sysmon's
// retake reads them.
func stdioSchedTicks() (sum uint64, busy bool) {
	lock(&allpLock)
	busy = true
	for _, pp := range allp {
		sum += uint64(pp.schedtick)
		if pp.status != _Prunning {
			busy = false
		}
	}
	unlock(&allpLock)
	return sum, busy
}

// stdioSignalDie ends the program as the deferred signal would have. A
// SIGABRT is sent again to the process, and sighandler, finding a death
// under way, prints its goroutine dump and exits as it does without the
// buffer; any other signal kills.
func stdioSignalDie(sig uint32) {
	if sig == _SIGABRT {
		// Let the flusher park first, so that the dump does not show
		// it running where the signal lands on its thread.
		for i := 0; i < 100 && stdioSig.running.Load() && readgstatus(stdioSig.g)&^_Gscan != _Gwaiting; i++ {
			usleep(100)
		}
		raiseproc(sig)
		// The dump runs on the thread that takes the signal, and ends
		// the process; this one waits for it, then dies all the same.
		usleep(10 * stdioSignalLimit / 1000)
	}
	dieFromSignal(sig)
}

// stdioSignalFlusher is the goroutine that flushes, and leaves standard
// output unbuffered until the death (finish). It is a system
// goroutine (it starts in package runtime): runtime.NumGoroutine,
// tracebacks and the deadlock check leave it out.
func stdioSignalFlusher() {
	stdioSig.g = getg()
	gopark(stdioSignalParked, nil, waitReasonZero, traceBlockSystemGoroutine, 1)
	stdioSig.running.Store(true)
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
		stdioSignalDie(sig)
	}
}
