//go:build stdiobuf_std

// This file is added to package runtime by `stdiobuf build -stdout`: the
// clock, the timer and the goroutine behind the bound (STDIOBUF_MAXDELAY)
// of package os's buffered files. None of them depends on the goroutine
// that uses them. A timer made by time.AfterFunc inside a testing/synctest
// bubble belongs to the bubble (a reset from outside it is a fatal error),
// and time.Now and Timer.Reset inside a bubble read the bubble's fake
// clock; so the bound's timer is the runtime's own, on the real clock
// (nanotime), and what it wakes is a system goroutine that os's init
// starts, which belongs to no bubble, does not show in
// runtime.NumGoroutine and is left out of the deadlock check.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// stdioBound is the bound's timer and the goroutine that calls os's fire.
//
// Invariant: when is the time t is set for, 0 while t is not set; kick is
// 1 whenever fire must run again; parked is 1 only while g waits in
// gopark, and the one that swaps it to 0 readies g.
var stdioBound struct {
	lock   mutex // guards when, and orders the settings of t
	when   int64
	t      timer
	fire   func()        // os's: flush what waited for the bound, or was asked for
	g      *g            // the goroutine that calls fire
	kick   atomic.Uint32 // 1: fire has to run
	parked atomic.Uint32 // 1: g waits in gopark
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
	if stdioBound.when == 0 || when < stdioBound.when {
		stdioBound.when = when
		stdioBound.t.reset(when, 0)
	}
	unlock(&stdioBound.lock)
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

// stdioBoundKick makes fire run soon, from an M that may have no P
// (checkdead's).
func stdioBoundKick() {
	stdioBound.kick.Store(1)
	if stdioBound.parked.CompareAndSwap(1, 0) {
		var list gList
		list.push(stdioBound.g)
		injectglist(&list)
	}
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
	stdioBound.when = 0
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
