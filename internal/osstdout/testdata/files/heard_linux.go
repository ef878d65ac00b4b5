package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

// The cases where the program hears from a child that changed its file.
func init() {
	// heard HOW: FILE, 1000 bytes of 'a', is read 16 bytes at a time (a
	// read buffer's idiom) up to byte 64; a child then writes 'Z' at
	// byte 500 and tells the program so (HOW: wait, it ends and the
	// program waits for it; signal, it sends SIGUSR1, which the program
	// waits for through signal.Notify; pipe, it writes a line to a pipe
	// the program reads; socket, the same on a Unix socket of package
	// net); the program reads on and prints byte 500.
	cases["heard"] = func(path string, args []string) {
		how := args[0]
		// Listening reads a file of /proc: before the file is read.
		var ln net.Listener
		if how == "socket" {
			var err error
			if ln, err = net.Listen("unix", path+".sock"); err != nil {
				fmt.Println(err)
				return
			}
		}
		if err := os.WriteFile(path, bytes.Repeat([]byte{'a'}, 1000), 0o644); err != nil {
			fmt.Println(err)
			return
		}
		f := open(path)
		p := make([]byte, 16)
		for range 4 {
			if _, err := io.ReadFull(f, p); err != nil {
				fmt.Println(err)
				return
			}
		}
		cmd := exec.Command(os.Args[0], "rewrite", path, how, strconv.Itoa(os.Getpid()))
		cmd.Stderr = os.Stderr
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGUSR1)
		var out io.ReadCloser
		if how == "pipe" {
			var err error
			if out, err = cmd.StdoutPipe(); err != nil {
				fmt.Println(err)
				return
			}
		}
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		switch how {
		case "wait":
			fmt.Println("wait:", cmd.Wait())
		case "signal":
			fmt.Println("signal:", <-sigs)
		case "pipe":
			line := make([]byte, 5)
			_, err := io.ReadFull(out, line)
			fmt.Printf("pipe: %q %v\n", line, err)
		case "socket":
			c, err := ln.Accept()
			if err != nil {
				fmt.Println(err)
				return
			}
			line := make([]byte, 5)
			_, err = io.ReadFull(c, line)
			fmt.Printf("socket: %q %v\n", line, err)
		}
		rest := make([]byte, 500-64+1)
		if _, err := io.ReadFull(f, rest); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("byte 500: %q\n", rest[len(rest)-1])
		if how != "wait" {
			cmd.Wait()
		}
	}
	// rewrite HOW PID: writes 'Z' at byte 500 of FILE, then tells
	// process PID as heard's HOW says.
	cases["rewrite"] = func(path string, args []string) {
		f := opened(os.OpenFile(path, os.O_WRONLY, 0))
		if _, err := f.WriteAt([]byte{'Z'}, 500); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		f.Close()
		switch args[0] {
		case "signal":
			pid, _ := strconv.Atoi(args[1])
			syscall.Kill(pid, syscall.SIGUSR1)
		case "pipe":
			os.Stdout.WriteString("done\n")
		case "socket":
			c, err := net.Dial("unix", path+".sock")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return
			}
			c.Write([]byte("done\n"))
			c.Close()
		}
	}
}
