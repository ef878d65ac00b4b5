// Command wineexec runs a windows/amd64 program under wine, in the prefix
// internal/winetest makes (and makes it the first time): the wrapper for
// `go test -exec` that runs a package's tests for Windows on Linux.
//
//	go build -o /tmp/wineexec ./internal/winetest/wineexec
//	GOOS=windows GOARCH=amd64 go test -exec /tmp/wineexec ./stream/
//
// Standard input, output and error are the program's; the exit status is
// its own, 2 when wine cannot be set up. SIGINT and SIGTERM are passed on.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/stdiobuf/stdiobuf/internal/winetest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wineexec PROGRAM.exe [ARG...]")
		os.Exit(2)
	}
	w, err := winetest.Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wineexec:", err)
		os.Exit(2)
	}
	cmd := w.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "wineexec:", err)
		os.Exit(2)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	code, err := winetest.ExitCode(cmd.Wait())
	if err != nil {
		fmt.Fprintln(os.Stderr, "wineexec:", err)
		os.Exit(2)
	}
	os.Exit(code)
}
