// Command prog writes to standard output in the ways the tests of
// `stdiobuf build -stdout` check: each case, named by the first argument,
// must give the same bytes built plainly and built with -stdout.
package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// answered waits until the parent answers on descriptor 3 (one byte), and
// exits if it cannot. It reads with syscall.Read, which no hook of
// package os sees: a *File's read of a pipe flushes standard output, and
// the wait must not, so that what arrives meanwhile is the bound's doing.
func answered() {
	var b [1]byte
	if _, err := syscall.Read(3, b[:]); err != nil {
		fmt.Fprintln(os.Stderr, "waiting for an answer:", err)
		os.Exit(1)
	}
}

func lines(prefix string, n int) {
	for i := range n {
		fmt.Println(prefix, i)
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: prog CASE")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "tellpipe", "tellsocket", "kill", "signal", "readpipe", "readsocket":
		peer(os.Args[1])
	case "return":
		lines("return", 100)
	case "exit0":
		lines("exit0", 100)
		os.Exit(0)
	case "exit3":
		lines("exit3", 100)
		os.Exit(3)
	case "fatal":
		lines("fatal", 100)
		// No timestamp: two runs compared a second apart would differ.
		log.SetFlags(0)
		log.Fatal("fatal error")
	case "child":
		// exec.Cmd with Stdout = os.Stdout: the child writes to the same
		// descriptor between the parent's two halves.
		lines("parent before", 10)
		c := exec.Command(os.Args[0], "return")
		c.Stdout = os.Stdout
		if err := c.Run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		lines("parent after", 10)
	case "stderr":
		// Interleaved standard output and standard error.
		for i := range 20 {
			fmt.Println("out", i)
			fmt.Fprintln(os.Stderr, "err", i)
		}
	case "prompt":
		fmt.Print("name? ")
		s, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Println("hello,", strings.TrimSpace(s))
	case "echo":
		// A coprocess: answers each line of standard input with one line
		// of standard output, and waits for the next question.
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			fmt.Println("got", in.Text())
		}
	case "goroutines":
		// Each Write is one whole line; lines must never be mixed.
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				line := strings.Repeat(string(rune('a'+g)), 50+g) + "\n"
				for range 500 {
					os.Stdout.WriteString(line)
				}
			})
		}
		wg.Wait()
	case "fd":
		// A write straight to the descriptor after Fd comes after what
		// was printed before.
		lines("before fd", 10)
		syscall.Write(int(os.Stdout.Fd()), []byte("raw write\n"))
		lines("after fd", 10)
	case "copy":
		// io.Copy into os.Stdout (ReadFrom, a kernel copy from a file).
		lines("before copy", 10)
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		io.Copy(os.Stdout, f)
		lines("after copy", 10)
	case "bufiocopy":
		// A bufio.Writer over os.Stdout holding bytes, then a
		// bufio.Reader's WriteTo into it (a kernel copy under package
		// stream): the held bytes come out first.
		lines("before bufiocopy", 10)
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		w := bufio.NewWriter(os.Stdout)
		fmt.Fprintln(w, "held by the bufio.Writer")
		bufio.NewReader(f).WriteTo(w)
		w.Flush()
		lines("after bufiocopy", 10)
	case "replace":
		// A program that replaces os.Stdout writes to what it put there.
		lines("original", 5)
		f, err := os.Create(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		saved := os.Stdout
		os.Stdout = f
		lines("replaced", 5)
		os.Stdout = saved
		f.Close()
		lines("restored", 5)
	case "close":
		lines("close", 10)
		if err := os.Stdout.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "close:", err)
			os.Exit(1)
		}
		if _, err := fmt.Println("after close"); err == nil {
			fmt.Fprintln(os.Stderr, "write after close succeeded")
			os.Exit(1)
		}
	case "stat":
		// Stat and Seek see every byte printed before them: on a
		// file, the size and the offset count them.
		lines("stat", 10)
		fi, err := os.Stdout.Stat()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		size := fi.Size()
		off, _ := os.Stdout.Seek(0, io.SeekCurrent)
		fmt.Printf("size %d offset %d\n", size, off)
	case "log":
		// A log.Logger pointed at os.Stdout writes through the buffer.
		l := log.New(os.Stdout, "log: ", 0)
		for i := range 20 {
			l.Println("line", i)
		}
	case "exithang":
		// os.Exit while another goroutine is stuck writing to a pipe
		// that nobody reads must still exit.
		go func() {
			for i := 0; ; i++ {
				fmt.Println("filling", i)
			}
		}()
		time.Sleep(300 * time.Millisecond)
		os.Exit(3)
	case "coproc":
		// A coprocess whose peer writes all its input before it reads
		// any output: a goroutine writes 2000001 bytes (small writes,
		// then a large one) while main reads all of standard input.
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := range 100000 {
				fmt.Printf("line %07d\n", i)
			}
			os.Stdout.Write(append(bytes.Repeat([]byte("x"), 700000), '\n'))
		})
		n, err := io.Copy(io.Discard, os.Stdin)
		wg.Wait()
		fmt.Fprintln(os.Stderr, "read", n, err)
	case "printers":
		// Goroutines alternate lines of standard output with the
		// runtime's print, while collections stop the world: under 2>&1
		// each print comes after the line its goroutine printed before
		// it. Each print is one string, one write(2), so that lines of
		// two goroutines never mix (println writes each argument apart).
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 300 {
					fmt.Println("out", g, i)
					print(fmt.Sprintf("err %d %d\n", g, i))
					if i%50 == 0 {
						runtime.GC()
					}
				}
			})
		}
		wg.Wait()
	case "stuck":
		// While a goroutine is blocked writing to a pipe nobody reads,
		// what sees the descriptor or starts a child: each call's time,
		// in milliseconds, on standard error.
		go func() {
			for i := 0; ; i++ {
				fmt.Println("filling", i)
			}
		}()
		time.Sleep(300 * time.Millisecond)
		timed := func(name string, call func() error) {
			start := time.Now()
			err := call()
			fmt.Fprintf(os.Stderr, "%s %d %v\n", name, time.Since(start).Milliseconds(), err)
		}
		timed("exec", func() error { return exec.Command("true").Run() })
		timed("fd", func() error { os.Stdout.Fd(); return nil })
		timed("stat", func() error { _, err := os.Stdout.Stat(); return err })
		timed("sync", func() error {
			os.Stdout.Sync() // fsync of a pipe: EINVAL, in both builds
			return nil
		})
		timed("dup3", func() error {
			// Descriptor 1 replaced by a copy of itself (Dup3 is on
			// every Linux port; Dup2 is not).
			fd, err := syscall.Dup(1)
			if err != nil {
				return err
			}
			defer syscall.Close(fd)
			return syscall.Dup3(fd, 1, 0)
		})
		os.Exit(0)
	case "rawprompt":
		// A prompt, then a raw read of the descriptor (as
		// term.ReadPassword does): the prompt shows first.
		fmt.Print("Password: ")
		buf := make([]byte, 100)
		n, _ := syscall.Read(int(os.Stdin.Fd()), buf)
		fmt.Printf("read %q\n", buf[:n])
	case "copyerr":
		// A kernel copy into standard error between two lines of
		// standard output, both into one file with 2>&1.
		fmt.Println("out1")
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		io.Copy(os.Stderr, f)
		fmt.Println("out2")
	case "panic":
		lines("panic", 10)
		panic("boom")
	case "embedread":
		// A type that embeds *os.File and overrides Read is read
		// through its Read, whatever the policy (read-ahead included);
		// with "concrete", the *os.File itself is read.
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var r *bufio.Reader
		if len(os.Args) > 3 && os.Args[3] == "concrete" {
			r = bufio.NewReader(f)
		} else {
			r = bufio.NewReader(upperFile{f})
		}
		lines, upper := 0, 0
		for {
			s, err := r.ReadString('\n')
			if s != "" {
				lines++
				if s == strings.ToUpper(s) {
					upper++
				}
			}
			if err != nil {
				break
			}
		}
		fmt.Printf("%d lines, %d read through the embedding type's Read\n", lines, upper)
	case "ready":
		// A server's READY line, then it blocks until its parent
		// answers (on descriptor 3, so that no read of standard input
		// flushes standard output).
		fmt.Println("READY")
		answered()
		fmt.Println("done")
	case "progress":
		// Progress lines, each waiting for an answer.
		for i := range 3 {
			fmt.Printf("progress %d\n", i)
			answered()
		}
	case "partial":
		// A prompt without a newline, waiting for an answer.
		fmt.Print("continue? ")
		answered()
		fmt.Println("yes")
	case "bufioflush":
		// The program's own flushes, then a wait: a bufio.Writer's,
		// and encoding/csv's (a bufio.Writer inside).
		w := bufio.NewWriter(os.Stdout)
		w.WriteString("flushed\n")
		if err := w.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "flush:", err)
			os.Exit(1)
		}
		answered()
		c := csv.NewWriter(os.Stdout)
		c.Write([]string{"a", "b"})
		c.Flush()
		answered()
	case "fullwait":
		// A line, then a wait: standard output is /dev/full, and the
		// error of the flush by the bound is reported meanwhile.
		fmt.Println("lost")
		answered()
	case "full", "fullignore":
		// A line to /dev/full: "full" checks fmt's error, as a careful
		// program does; "fullignore" does not.
		_, err := fmt.Println("hello")
		if err != nil && os.Args[1] == "full" {
			fmt.Fprintln(os.Stderr, "prog:", err)
			os.Exit(1)
		}
	case "fullclose", "fullsync", "fullcheckclose":
		// Lines to /dev/full, each Println's error checked (status 1);
		// then "fullclose" drops Close's error (defer) and "fullsync"
		// Sync's, and both exit 0; "fullcheckclose" acts on Close's
		// error with its own message and status 3.
		if os.Args[1] == "fullclose" {
			defer os.Stdout.Close()
		}
		for i := range 3 {
			if _, err := fmt.Println("line", i); err != nil {
				fmt.Fprintln(os.Stderr, "prog:", err)
				os.Exit(1)
			}
		}
		switch os.Args[1] {
		case "fullsync":
			os.Stdout.Sync()
		case "fullcheckclose":
			if err := os.Stdout.Close(); err != nil {
				fmt.Fprintln(os.Stderr, "prog: close:", err)
				os.Exit(3)
			}
		}
	case "newfile":
		// Another *File on descriptor 1 between two lines.
		fmt.Println("1")
		os.NewFile(1, "stdout").WriteString("2\n")
		fmt.Println("3")
	case "devstdout", "procfd1":
		// goawk's TestDevStdout: its own Flush, then a write through a
		// file opened as /dev/stdout (or /proc/self/fd/1).
		name := "/dev/stdout"
		if os.Args[1] == "procfd1" {
			name = "/proc/self/fd/1"
		}
		w := bufio.NewWriter(os.Stdout)
		w.WriteString("1 ")
		w.Flush()
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		f.WriteString("2\n")
		f.Close()
		fmt.Println("3")
	case "sigpipe":
		// Lines into a pipe nobody reads, SIGPIPE caught: the writes
		// fail, the program goes on and exits 0, saying nothing.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
		lines("sigpipe", 100)
	case "sleepy":
		// Two lines a moment apart: two writes under a bound, one
		// without (counted with strace).
		fmt.Println("a")
		time.Sleep(300 * time.Millisecond)
		fmt.Println("b")
	case "many":
		// golang/go#3463's loop, for counting write calls.
		for i := range 100000 {
			fmt.Println(i)
		}
	default:
		fmt.Fprintln(os.Stderr, "prog: unknown case", os.Args[1])
		os.Exit(2)
	}
}

// upperFile is an *os.File whose Read upper-cases what it reads.
type upperFile struct{ *os.File }

func (u upperFile) Read(p []byte) (int, error) {
	n, err := u.File.Read(p)
	copy(p, bytes.ToUpper(p[:n]))
	return n, err
}

// peer prints a line, then lets another process hear from it (a byte
// written to descriptor 3, a pipe or a socket; SIGUSR1 sent to its
// parent) or waits to hear from one (a byte read from descriptor 3):
// whoever hears from it, or is waited for, must find the line already
// written. Telling, it then sleeps without any I/O until killed; reading,
// it prints a second line and returns.
func peer(how string) {
	var conn net.Conn
	if strings.HasSuffix(how, "socket") {
		// Made before the line: net.FileConn takes the descriptor
		// (SyscallConn), which flushes standard output by itself.
		c, err := net.FileConn(os.NewFile(3, "socket"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		conn = c
	}
	fmt.Println("before")
	var err error
	b := []byte{'x'}
	switch how {
	case "tellpipe":
		_, err = os.NewFile(3, "pipe").Write(b)
	case "tellsocket":
		_, err = conn.Write(b)
	case "kill":
		err = syscall.Kill(os.Getppid(), syscall.SIGUSR1)
	case "signal":
		var p *os.Process
		if p, err = os.FindProcess(os.Getppid()); err == nil {
			err = p.Signal(syscall.SIGUSR1)
		}
	case "readpipe":
		_, err = os.NewFile(3, "pipe").Read(b)
	case "readsocket":
		_, err = conn.Read(b)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, how+":", err)
		os.Exit(1)
	}
	if strings.HasPrefix(how, "read") {
		fmt.Println("after")
		return
	}
	time.Sleep(time.Minute)
}
