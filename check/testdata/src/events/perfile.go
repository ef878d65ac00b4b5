package events

import (
	"fmt"
	"os"
)

// appendLine opens the file, writes a line and closes it on each call:
// nothing to buffer across calls.
func appendLine(name, line string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, line)
	return f.Close()
}

var logFile *os.File

// logLine writes to a file opened once, elsewhere.
func logLine(line string) {
	fmt.Fprintln(logFile, line)
}

func appendAll(name string, lines []string) {
	for _, l := range lines {
		appendLine(name, l)
		logLine(l) // want `^per-record write to logFile via logLine\(\): fmt.Fprintln \(perfile.go:23\) .*-files$`
	}
}
