// Command crash ends, or hands its standard output on, in the ways the
// tests of `stdiobuf build -stdout`'s runtime and syscall hooks check
// (internal/osstdout/crash_test.go): each case, named by the first
// argument, must show the same output built plainly and with -stdout.
package main

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

func lines(prefix string, n int) {
	for i := range n {
		fmt.Println(prefix, i)
	}
}

// ready tells the test, on standard error (unbuffered), that what it
// waits for has been written, and waits to be killed (asleep, not
// deadlocked: the runtime would end a deadlocked program).
func ready() {
	fmt.Fprintln(os.Stderr, "ready")
	time.Sleep(time.Hour)
}

// fail ends a case that could not do what it tests.
func fail(err error) {
	fmt.Fprintln(os.Stderr, "crash:", err)
	os.Exit(100)
}

// openSide opens the file named by the second argument for writing.
func openSide() *os.File {
	f, err := os.Create(os.Args[2])
	if err != nil {
		fail(err)
	}
	return f
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: crash CASE [ARG]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "panic":
		lines("panic", 10)
		panic("boom")
	case "goroutine-panic":
		// Main waits; another goroutine panics.
		lines("main", 10)
		go func() {
			lines("goroutine", 10)
			panic("boom in a goroutine")
		}()
		time.Sleep(time.Hour)
	case "two-panics":
		// Two goroutines panic at once: the second must not end the
		// program before the first has flushed.
		lines("two", 1000)
		var start sync.WaitGroup
		start.Add(1)
		for range 2 {
			go func() {
				start.Wait()
				panic("boom")
			}()
		}
		start.Done()
		time.Sleep(time.Hour)
	case "error-panic":
		// The panic value's Error method prints, as preprintpanics
		// calls it: its output comes before the message too.
		lines("error", 5)
		panic(printingError{})
	case "log.Panic":
		lines("log", 10)
		log.Panic("log panic")
	case "goexit":
		// Main's Goexit: the other goroutine goes on printing, then
		// the program ends with a fatal error.
		lines("main", 10)
		go func() {
			time.Sleep(50 * time.Millisecond)
			lines("after goexit", 10)
		}()
		defer fmt.Println("main's deferred call")
		runtime.Goexit()
	case "map":
		// Concurrent map writes: a fatal error, not a panic.
		lines("map", 10)
		m := map[int]int{}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for i := 0; ; i++ {
					m[i%1000] = i
				}
			})
		}
		wg.Wait()
	case "wait":
		// Killed by the test once ready.
		lines("wait", 10)
		ready()
	case "busy":
		// Killed by the test while it prints.
		go func() {
			lines("busy", 1000)
			fmt.Fprintln(os.Stderr, "ready")
		}()
		for i := 0; ; i++ {
			fmt.Println("busy line", i)
		}
	case "kill-self":
		// A signal it sends itself kills it before the next line.
		lines("self", 10)
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(5 * time.Second)
		fmt.Println("not reached")
	case "kill-self-return":
		// ... and before main returns.
		lines("self", 10)
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
	case "kill-self-exec", "kill-self-forkexec", "kill-self-exit":
		// A fatal signal, then a call that would hand the descriptor
		// on or end the program otherwise: the signal wins, as it
		// does without the buffer. Sent to its own thread, the signal
		// is handled before tgkill returns: a signal sent to the
		// process may be handled by another thread later, and the call
		// win in the plain build too.
		lines("self", 10)
		runtime.LockOSThread()
		syscall.Tgkill(os.Getpid(), syscall.Gettid(), syscall.SIGTERM)
		switch os.Args[1] {
		case "kill-self-exec":
			fail(syscall.Exec(os.Args[0], []string{os.Args[0], "child"}, os.Environ()))
		case "kill-self-forkexec":
			pid, err := syscall.ForkExec(os.Args[0], []string{os.Args[0], "child"}, &syscall.ProcAttr{Files: []uintptr{0, 1, 2}})
			if err != nil {
				fail(err)
			}
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
			lines("parent after", 10)
		default:
			syscall.Exit(3)
		}
	case "raw-fork":
		// A fork the syscall package does not see copies the buffer:
		// the child, exiting through Go, writes what it held again.
		lines("fork", 3)
		pid, _, errno := syscall.RawSyscall(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0)
		if errno != 0 {
			fail(errno)
		}
		if pid == 0 {
			os.Exit(0)
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(int(pid), &ws, 0, nil); err != nil {
			fail(err)
		}
		lines("parent after", 1)
	case "spin":
		// Killed by the test while it loops without a preemption
		// point (the test runs it with GOMAXPROCS=1 and
		// GODEBUG=asyncpreemptoff=1): the scheduler never runs
		// another goroutine.
		lines("spin", 10)
		fmt.Fprintln(os.Stderr, "ready")
		for {
		}
	case "notify":
		// A program that catches the signal keeps its own behaviour.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
		lines("notify", 10)
		fmt.Fprintln(os.Stderr, "ready")
		fmt.Println("got", <-c)
	case "ignore":
		signal.Ignore(syscall.SIGTERM)
		lines("ignore", 10)
		fmt.Fprintln(os.Stderr, "ready")
		time.Sleep(300 * time.Millisecond)
		fmt.Println("still here")
	case "dup2", "dup3":
		// Standard output replaced by another file: what was printed
		// before stays in the first.
		lines("before", 10)
		side := openSide()
		var err error
		if os.Args[1] == "dup2" {
			err = syscall.Dup2(int(side.Fd()), 1)
		} else {
			err = syscall.Dup3(int(side.Fd()), 1, 0)
		}
		if err != nil {
			fail(err)
		}
		lines("after", 10)
	case "close-dup":
		// The classic redirection: close descriptor 1, and dup a file,
		// which takes the lowest free descriptor.
		lines("before", 10)
		side := openSide()
		if err := syscall.Close(1); err != nil {
			fail(err)
		}
		if fd, err := syscall.Dup(int(side.Fd())); err != nil || fd != 1 {
			fail(fmt.Errorf("dup gave %d, %v", fd, err))
		}
		lines("after", 10)
	case "forkexec":
		// A child started with syscall.ForkExec on the same
		// descriptors writes between the parent's two halves.
		lines("parent before", 10)
		pid, err := syscall.ForkExec(os.Args[0], []string{os.Args[0], "child"}, &syscall.ProcAttr{Files: []uintptr{0, 1, 2}})
		if err != nil {
			fail(err)
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			fail(err)
		}
		lines("parent after", 10)
	case "exec":
		lines("before exec", 10)
		fail(syscall.Exec(os.Args[0], []string{os.Args[0], "child"}, os.Environ()))
	case "child":
		lines("child", 10)
	case "exit":
		lines("exit", 10)
		syscall.Exit(3)
	case "deadlock":
		// Every goroutine asleep while the lines wait for the bound:
		// the runtime's deadlock report comes after them.
		lines("deadlock", 10)
		select {}
	case "println":
		// The runtime's println goes to standard error; with 2>&1 it
		// keeps its place among the lines.
		for i := range 10 {
			fmt.Println("out", i)
			println("println", i)
		}
	default:
		fmt.Fprintln(os.Stderr, "crash: unknown case", os.Args[1])
		os.Exit(2)
	}
}

// printingError prints when its message is asked for.
type printingError struct{}

func (printingError) Error() string {
	fmt.Println("Error called")
	return strings.ToUpper("printing error")
}
