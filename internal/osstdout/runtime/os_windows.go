//go:build stdiobuf_std

// This file is merged into package runtime's os_windows.go by `stdiobuf
// build -stdout`: what the console control handler does first.

package runtime

import "internal/runtime/atomic"

// stdioConsoleCtrl runs first in ctrlHandler, which Windows calls on a
// thread of its own for a console event (Ctrl-C, Ctrl-Break, the console
// closing, logoff, shutdown). Where the program does not take the signal
// the event stands for (os/signal), ctrlHandler declines the event and
// Windows' default handler ends the process at once, without the exit
// hooks; so what os buffers is written out here first, as the fatal
// signals' flush does on Unix. The handler runs as a callback into Go,
// on a goroutine of its own, where os's flush may run.
func stdioConsoleCtrl(event uint32) {
	const (
		ctrlC, ctrlBreak, ctrlClose, ctrlLogoff, ctrlShutdown = 0, 1, 2, 5, 6 // wincon.h
		sigint, sigterm                                       = 2, 15         // syscall.SIGINT and SIGTERM on Windows
	)
	var s uint32
	switch event {
	case ctrlC, ctrlBreak:
		s = sigint
	case ctrlClose, ctrlLogoff, ctrlShutdown:
		s = sigterm
	default:
		return
	}
	if atomic.Load(&sig.wanted[s/32])&(1<<(s&31)) != 0 {
		return // the program takes it, and ends or not
	}
	if stdioCanFlush() {
		stdioFatalFlush()
	}
}
