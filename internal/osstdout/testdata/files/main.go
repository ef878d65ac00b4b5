// Command files writes to a file the way the idioms of issue 22 do, for
// internal/osstdout's -files tests, which run it built plainly and with
// -files and compare. Usage: files CASE FILE [ARGS].
package main

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// lines is how many lines each case writes.
const lines = 2000

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: files CASE FILE [ARGS]")
		os.Exit(2)
	}
	name, path := os.Args[1], os.Args[2]
	c, ok := cases[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "files: unknown case %q\n", name)
		os.Exit(2)
	}
	c(path, os.Args[3:])
}

func create(path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return f
}

// fill writes the lines with fmt.Fprintf, ignoring errors as most
// programs do.
func fill(f io.Writer) {
	for i := 0; i < lines; i++ {
		fmt.Fprintf(f, "line %d of the file\n", i)
	}
}

// collect runs the garbage collector, and with it the finalizers that
// close the files the program dropped, n times, letting them run.
func collect(n int) {
	for i := 0; i < n; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// wait blocks until standard input ends.
func wait() { io.Copy(io.Discard, os.Stdin) }

var cases = map[string]func(path string, args []string){
	// The Fprintf loop; main returns without Close.
	"fprintf": func(path string, _ []string) { fill(create(path)) },
	"log": func(path string, _ []string) {
		log.SetOutput(create(path))
		log.SetFlags(0)
		for i := 0; i < lines; i++ {
			log.Printf("record %d", i)
		}
	},
	"gob": func(path string, _ []string) {
		enc := gob.NewEncoder(create(path))
		for i := 0; i < lines; i++ {
			enc.Encode(struct{ N int }{i})
		}
	},
	"json": func(path string, _ []string) {
		enc := json.NewEncoder(create(path))
		for i := 0; i < lines; i++ {
			enc.Encode(map[string]int{"n": i})
		}
	},
	// Says done on standard error (a pipe, unbuffered), then sleeps
	// until the test, which reads the file meanwhile, kills it.
	"done": func(path string, _ []string) {
		fill(create(path))
		fmt.Fprintln(os.Stderr, "done")
		time.Sleep(time.Minute)
	},
	// The sizes os.Stat and f.Stat see.
	"stat": func(path string, _ []string) {
		f := create(path)
		fill(f)
		fi, err := os.Stat(path)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("os.Stat", fi.Size())
		fill(f)
		fi, err = f.Stat()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("f.Stat", fi.Size())
	},
	// A child reads the file.
	"child": func(path string, _ []string) {
		fill(create(path))
		cmd := exec.Command("wc", "-c", path)
		cmd.Stdout = os.Stdout
		if err := cmd.Run(); err != nil {
			fmt.Println(err)
		}
	},
	// The program reads the file back through another *File.
	"reread": func(path string, _ []string) {
		f := create(path)
		fill(f)
		g, err := os.Open(path)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, err := io.ReadAll(g)
		fmt.Println("read", len(b), err)
		fill(f)
		b, err = os.ReadFile(path)
		fmt.Println("ReadFile", len(b), err)
	},
	// Says ready, then waits to be killed by a signal.
	"signal": func(path string, _ []string) {
		fill(create(path))
		fmt.Println("ready")
		wait()
	},
	"panic": func(path string, _ []string) {
		fill(create(path))
		panic("files: the panic the test asks for")
	},
	// Says done on a TCP connection to ARGS[0] (package net's socket,
	// not an *os.File), then sleeps until the test kills it.
	"socket": func(path string, args []string) {
		conn, err := net.Dial("tcp", args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fill(create(path))
		conn.Write([]byte("done\n"))
		time.Sleep(time.Minute)
	},
	// The methods of a nil *File return os.ErrInvalid, as plainly.
	"nilfile": func(path string, _ []string) {
		fill(create(path))
		var f *os.File
		_, werr := f.Write([]byte("x"))
		fmt.Println(f.Close(), werr, f.Sync())
	},
	// Lowers its limit of open files to 64, then creates ARGS[0] files
	// FILE.0, FILE.1, ..., writes a line to each and drops it without
	// Close, running the garbage collector now and then, which closes
	// the dropped files; then FILE, created first, says how many it
	// wrote.
	"unclosed": func(path string, args []string) {
		n, _ := strconv.Atoi(args[0])
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		lim.Cur = 64
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		out := create(path)
		for i := 0; i < n; i++ {
			f, err := os.Create(path + "." + strconv.Itoa(i))
			if err != nil {
				fmt.Println(err)
				os.Exit(1)
			}
			fmt.Fprintf(f, "file %d\n", i)
			if i%16 == 15 {
				runtime.GC()
			}
		}
		fmt.Fprintf(out, "wrote %d files\n", n)
	},
	// One line to a file it drops without Close, then collects: the
	// line must not go with the file. With ARGS[0] "wait" it goes on
	// collecting until the test kills it (a reader polling the file sees
	// the line within the bound); otherwise it returns from main.
	"dropped": func(path string, args []string) {
		fmt.Fprintln(create(path), "the one line")
		n := 10
		if len(args) > 0 && args[0] == "wait" {
			n = 6000
		}
		collect(n)
	},
	// One Write of ARGS[0] bytes, then sleeps.
	"block": func(path string, args []string) {
		n, _ := strconv.Atoi(args[0])
		create(path).Write(bytes.Repeat([]byte("b"), n))
		time.Sleep(time.Minute)
	},
	// One line, then sleeps: a reader polling the file sees it within
	// the bound.
	"poll": func(path string, _ []string) {
		f := create(path)
		fmt.Fprintln(f, "the one line")
		time.Sleep(time.Minute)
	},
	// Appends ARGS[1] lines, tagged ARGS[0], to the O_APPEND file,
	// of lengths that do not divide any buffer's size.
	"append": func(path string, args []string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		n, _ := strconv.Atoi(args[1])
		for i := 0; i < n; i++ {
			fmt.Fprintf(f, "%s %d %s\n", args[0], i, strings.Repeat("x", i%97))
		}
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	},
	// A careful program: it stops at the first error and exits 3.
	"careful": func(path string, _ []string) {
		f := create(path)
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(f, "line %d of a file that fills the disk\n", i); err != nil {
				fmt.Fprintln(os.Stderr, "careful:", err)
				os.Exit(3)
			}
			if i == 1<<20 {
				break
			}
		}
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "careful:", err)
			os.Exit(3)
		}
	},
	// A careless program: it writes a little less than ARGS[0] bytes,
	// checks nothing and exits 0.
	"careless": func(path string, args []string) {
		n, _ := strconv.Atoi(args[0])
		f := create(path)
		for written := 0; written+64 < n; written += 32 {
			f.WriteString("0123456789012345678901234567890\n")
		}
	},
	// Starts a shell that prints the file's size when SIGTERM comes,
	// writes the file, then signals the shell.
	"signalchild": func(path string, _ []string) {
		cmd := exec.Command("sh", "-c", `trap 'wc -c < "$0"; exit 0' TERM; echo up; while :; do sleep 0.01; done`, path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		up := make([]byte, 3)
		io.ReadFull(out, up)
		fill(create(path))
		cmd.Process.Signal(syscall.SIGTERM)
		// Nothing but the signal may write the file out before the
		// shell's trap runs: reading the pipe would.
		time.Sleep(500 * time.Millisecond)
		b, _ := io.ReadAll(out)
		cmd.Wait()
		fmt.Printf("child saw %s", b)
	},
}
