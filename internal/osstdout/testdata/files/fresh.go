//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// The fresh cases: the program reads part of a file, a child changes a
// byte of it beyond where the program is and then tells it so, in the
// way ARGS[0] names, and the program reads on to that byte, which it
// sees changed, as every process does once told.

// freshSize is the size of the file the fresh cases read, and freshAt
// the offset of the byte the child changes.
const (
	freshSize = 8000
	freshAt   = 4000
	// freshLines is how many lines freshstdin reads a byte at a time
	// before the file: more Reads than standard input's pipe takes to
	// get a buffer.
	freshLines = 100
)

func init() {
	// FILE HOW: HOW is wait (the child exits, cmd.Wait), wait4 (the
	// same, through syscall.Wait4), signal (the child sends SIGUSR1,
	// which signal.Notify delivers), pipe (the child writes a line to a
	// pipe the program reads) or socket (the same on a Unix socket).
	cases["fresh"] = func(path string, args []string) {
		how := args[0]
		if err := os.WriteFile(path, bytes.Repeat([]byte("."), freshSize), 0o644); err != nil {
			fmt.Println(err)
			return
		}
		// The listener first: net.Listen reads /proc's somaxconn, whose
		// Read gives back every read buffer (its identity is not
		// trusted).
		sock := path + ".sock"
		var ln net.Listener
		if how == "socket" {
			ln = opened(net.Listen("unix", sock))
		}
		f := open(path)
		p := make([]byte, 10)
		for range 3 { // read through a buffer from the second Read on
			io.ReadFull(f, p)
		}
		sig := make(chan os.Signal, 1)
		if how == "signal" {
			signal.Notify(sig, syscall.SIGUSR1)
		}
		cmd := exec.Command(os.Args[0], "freshchild", path, how, sock)
		cmd.Stderr = os.Stderr
		var out io.Reader
		if how == "pipe" {
			out = opened(cmd.StdoutPipe())
		}
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		switch how {
		case "wait":
			fmt.Println("wait:", cmd.Wait())
		case "wait4":
			var ws syscall.WaitStatus
			_, err := syscall.Wait4(cmd.Process.Pid, &ws, 0, nil)
			fmt.Println("wait4:", err, ws.ExitStatus())
		case "signal":
			fmt.Println("signal:", <-sig)
		case "pipe":
			fmt.Println("pipe:", readLine(out))
		case "socket":
			c := opened(ln.Accept())
			fmt.Println("socket:", readLine(c))
			c.Close()
		}
		rest := make([]byte, freshAt+1-30)
		for i := 0; i < len(rest); i += 100 {
			io.ReadFull(f, rest[i:min(i+100, len(rest))])
		}
		fmt.Printf("byte %d: %q\n", freshAt, rest[len(rest)-1])
		if how != "wait" && how != "wait4" {
			cmd.Wait()
		}
		if ln != nil {
			ln.Close()
		}
	}
	// FILE: the program reads freshLines lines of standard input, a pipe (so that the pipe gets a read buffer), then
	// part of FILE, tells its standard output "ready", reads a line of
	// standard input, which its writer sends once it has changed the
	// byte at freshAt, and reads on to that byte.
	cases["freshstdin"] = func(path string, _ []string) {
		for range freshLines {
			readLine(os.Stdin)
		}
		if err := os.WriteFile(path, bytes.Repeat([]byte("."), freshSize), 0o644); err != nil {
			fmt.Println(err)
			return
		}
		f := open(path)
		p := make([]byte, 10)
		for range 3 {
			io.ReadFull(f, p)
		}
		fmt.Println("ready")
		fmt.Println("stdin:", readLine(os.Stdin))
		rest := make([]byte, freshAt+1-30)
		for i := 0; i < len(rest); i += 100 {
			io.ReadFull(f, rest[i:min(i+100, len(rest))])
		}
		fmt.Printf("byte %d: %q\n", freshAt, rest[len(rest)-1])
	}
	// FILE HOW SOCK: fresh's child: it changes the byte at freshAt,
	// then tells its parent as HOW says.
	cases["freshchild"] = func(path string, args []string) {
		f := opened(os.OpenFile(path, os.O_WRONLY, 0))
		if _, err := f.WriteAt([]byte("X"), freshAt); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		f.Close()
		switch args[0] {
		case "signal":
			syscall.Kill(os.Getppid(), syscall.SIGUSR1)
		case "pipe":
			fmt.Println("changed")
		case "socket":
			c := opened(net.Dial("unix", args[1]))
			fmt.Fprintln(c, "changed")
			c.Close()
		}
	}
}

// readLine reads r a byte at a time up to a newline, as a program that
// waits for a word from its peer does, and returns the line.
func readLine(r io.Reader) string {
	var line []byte
	b := make([]byte, 1)
	for {
		if n, err := r.Read(b); n == 0 || err != nil || b[0] == '\n' {
			return string(line)
		}
		line = append(line, b[0])
	}
}
