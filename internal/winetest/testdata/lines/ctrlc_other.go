//go:build !windows

package main

import "errors"

// ctrlC fails: only Windows has console control events.
func ctrlC() error { return errors.New("ctrlc: Windows only") }
