//go:build stdiobuf_std

// This file is added to package runtime by `stdiobuf build -stdout`: the
// clock, the timer and the goroutine behind the bound (STDIOBUF_MAXDELAY)
// of package os's buffered files. None of them depends on the goroutine
// that uses them. A timer made by time.AfterFunc inside a testing/synctest
// bubble belongs to the bubble (a reset from outside it is a fatal error),
// and time.Now and Timer.Reset inside a bubble read the bubble's fake
// clock; so the bound's clock is the real one (nanotime), and what it
// wakes is a system goroutine that os's init starts, which belongs to no
// bubble, does not show in runtime.NumGoroutine and is left out of the
// deadlock check.
//
// On Linux the clock is the signal watch thread's sleep
// (signal_unix.go's stdioSignalWatch), a thread every program built so
// starts before its first buffered byte, and so before the bound's
// first deadline: a runtime timer, the first of a program that sets none
// of its own, starts the network poller (epoll_create1, eventfd2,
// epoll_ctl) and wakes a thread to wait for it, which a short program
// that writes a line pays for in CPU (bench/startup.sh). Elsewhere it is
// a runtime timer.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// stdioBound is the bound's deadline, its timer where the watch thread
// does not keep it, and the goroutine that calls os's fire.
//
// Invariant: when is the deadline the clock waits for, 0 while none; kick
// is 1 whenever fire must run again; parked is 1 only while g waits in
// gopark, and the one that swaps it to 0 readies g.
var stdioBound struct {
	lock    mutex        // orders the changes of when, and the settings of t
	when    atomic.Int64 // written under lock; read without it by the watch thread
	watched atomic.Bool  // the signal watch thread is the clock: t is never set
	t       timer
	fire    func()        // os's: flush what waited for the bound, or was asked for
	g       *g            // the goroutine that calls fire
	kick    atomic.Uint32 // 1: fire has to run
	parked  atomic.Uint32 // 1: g waits in gopark
}

// os_stdioBoundStart starts the goroutine that calls fire when the
// timer, set by os_stdioArm, goes off, or os_stdioWake asks for it. It
// runs in os's init, outside any bubble.
//
//go:linkname os_stdioBoundStart os.runtime_stdioBoundStart
func os_stdioBoundStart(fire func()) {
	stdioBound.fire = fire
	stdioBound.t.init(stdioBoundTimer, nil)
	go stdioBoundRun()
}

// os_stdioArm makes fire run at when (nanotime's clock) at the latest. A
// timer already set for an earlier time stays as it is: fire then finds
// the later deadline and arms again.
//
//go:linkname os_stdioArm os.runtime_stdioArm
func os_stdioArm(when int64) {
	lock(&stdioBound.lock)
	if w := stdioBound.when.Load(); w == 0 || when < w {
		stdioBound.when.Store(when)
		if stdioBound.watched.Load() {
			stdioWatchWake()
		} else {
			stdioBound.t.reset(when, 0)
		}
	}
	unlock(&stdioBound.lock)
}

// stdioBoundDue is the watch thread's look at the bound: it readies the
// bound's goroutine where the deadline has passed, and returns how long
// the thread may sleep, in nanoseconds: -1 for as long as nothing wakes
// it, 0 for not at all.
func stdioBoundDue() int64 {
	when := stdioBound.when.Load()
	if when == 0 {
		return -1
	}
	if now := nanotime(); now < when {
		return when - now
	}
	// when is cleared before fire can run: fire arms again for what is
	// not due yet, and an arming that found the old deadline still set
	// would be lost.
	lock(&stdioBound.lock)
	if stdioBound.when.Load() == when {
		stdioBound.when.Store(0)
	}
	unlock(&stdioBound.lock)
	stdioBoundKick()
	return 0
}

// os_stdioWake makes fire run soon, on its goroutine: os hands it a flush
// that the calling goroutine must not wait for.
//
//go:linkname os_stdioWake os.runtime_stdioWake
func os_stdioWake() {
	stdioBound.kick.Store(1)
	if stdioBound.parked.CompareAndSwap(1, 0) {
		goready(stdioBound.g, 0)
	}
}

// stdioWatch is how the watch thread sleeps: on wake, which a waker (a
// fatal signal's handler, an arming of the bound) wakes only after taking
// sleeping from 1 to 0. So a wakeup is outstanding only while sleeping
// is 0, and the thread clears wake only once it holds none: after its own
// timed-out sleep it takes sleeping back itself, or, beaten to it, waits
// for the wakeup on its way.
var stdioWatch struct {
	wake     note
	sleeping atomic.Uint32 // 1: the thread may sleep on wake, and a waker must wake it
}

// stdioWatchWake wakes the watch thread if it sleeps or is about to; if
// it does not, it looks at the fatal signal and the bound before it
// does. Async-signal-safe on Linux, the one system the thread runs on;
// elsewhere the bound is a timer and nothing calls it.
//
//go:nowritebarrierrec
func stdioWatchWake() {
	if stdioWatch.sleeping.CompareAndSwap(1, 0) {
		notewakeup(&stdioWatch.wake)
	}
}

// stdioBoundKick makes fire run soon, from an M that may have no P (the
// watch thread, checkdead's).
func stdioBoundKick() {
	stdioBound.kick.Store(1)
	if stdioBound.parked.CompareAndSwap(1, 0) {
		stdioInject(stdioBound.g)
	}
}

// stdioInject readies gp, a parked system goroutine, from an M that may
// have no P: goready needs one, injectglist does not.
func stdioInject(gp *g) {
	var list gList
	list.push(gp)
	injectglist(&list)
}

// stdioDeadlock is the state of the flush before a deadlock report:
// stdioDeadlockNone, then stdioDeadlockAsked once checkdead found every
// goroutine asleep, then stdioDeadlockDone once the bound's goroutine
// wrote out what was buffered.
var stdioDeadlock atomic.Uint32

const (
	stdioDeadlockNone = iota
	stdioDeadlockAsked
	stdioDeadlockDone
)

// stdioDeadlockFlush runs where checkdead is about to report that every
// goroutine is asleep, with sched.lock released and no Go code allowed:
// what is buffered would be lost with the program, where the plain build
// wrote it. It asks the bound's goroutine to write it out and reports
// true, the program then alive until that goroutine is done; false once
// it is, or where there is no such goroutine, and the report goes on.
func stdioDeadlockFlush() bool {
	if stdioBound.g == nil || GOARCH == "wasm" {
		return false
	}
	switch stdioDeadlock.Load() {
	case stdioDeadlockNone:
		if stdioDeadlock.CompareAndSwap(stdioDeadlockNone, stdioDeadlockAsked) {
			stdioBoundKick()
		}
		return true
	case stdioDeadlockAsked:
		return true
	}
	return false
}

// os_stdioNanotime is the real monotonic clock, also inside a bubble.
//
//go:linkname os_stdioNanotime os.runtime_stdioNanotime
func os_stdioNanotime() int64 { return nanotime() }

// os_stdioSleep sleeps ns on the real clock, also inside a bubble, where
// time.Sleep would wait for the bubble's fake clock, which does not move
// while a goroutine of the bubble is in a system call.
//
//go:linkname os_stdioSleep os.runtime_stdioSleep
func os_stdioSleep(ns int64) {
	notetsleepg(new(note), ns)
}

// os_stdioG identifies the calling goroutine.
//
//go:linkname os_stdioG os.runtime_stdioG
func os_stdioG() uintptr { return uintptr(unsafe.Pointer(getg())) }

// stdioBoundTimer is the timer's function.
func stdioBoundTimer(any, uintptr, int64) {
	lock(&stdioBound.lock)
	stdioBound.when.Store(0)
	unlock(&stdioBound.lock)
	os_stdioWake()
}

// stdioBoundRun is the goroutine that calls fire. It is a system
// goroutine (it starts in package runtime): runtime.NumGoroutine,
// tracebacks and the deadlock check leave it out. While it waits it holds
// no timer, so a program whose goroutines are all asleep with nothing
// buffered is reported as deadlocked as before.
func stdioBoundRun() {
	stdioBound.g = getg()
	for {
		if stdioBound.kick.Swap(0) == 0 {
			gopark(stdioBoundParked, nil, waitReasonZero, traceBlockSystemGoroutine, 1)
			continue
		}
		if stdioDeadlock.Load() == stdioDeadlockAsked {
			if f := stdioHooks.tryFlush; f != nil {
				f()
			}
			stdioDeadlock.Store(stdioDeadlockDone)
		}
		stdioBound.fire()
	}
}

// stdioBoundParked runs once g is waiting: it lets g be readied, unless a
// kick came meanwhile and g can take it back itself.
func stdioBoundParked(*g, unsafe.Pointer) bool {
	stdioBound.parked.Store(1)
	if stdioBound.kick.Load() == 1 && stdioBound.parked.CompareAndSwap(1, 0) {
		return false
	}
	return true
}
