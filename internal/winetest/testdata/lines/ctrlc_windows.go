package main

import "syscall"

// ctrlC sends a Ctrl-C to every process of the console, this one among
// them (GenerateConsoleCtrlEvent, process group 0).
func ctrlC() error {
	const ctrlCEvent = 0
	r, _, err := syscall.NewLazyDLL("kernel32.dll").NewProc("GenerateConsoleCtrlEvent").Call(ctrlCEvent, 0)
	if r == 0 {
		return err
	}
	return nil
}
