// Command files writes to a file and reads one the way the idioms of
// issue 22 do, for internal/osstdout's -files tests, which run it built
// plainly and with -files and compare. Usage: files CASE FILE [ARGS].
// The cases that read find their input in FILE, or on standard input.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
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

func create(path string) *os.File { return opened(os.Create(path)) }

// open opens path read-only, or exits.
func open(path string) *os.File { return opened(os.Open(path)) }

// opened returns f (a *File, a *Root), or exits if err is not nil.
func opened[T any](f T, err error) T {
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

// scanInts reads up to n integers (all if n < 0) from r with fmt.Fscan
// and prints how many, their sum and the error that stopped it.
func scanInts(r io.Reader, n int) {
	var count, sum int64
	var err error
	for n < 0 || count < int64(n) {
		var x int64
		if _, err = fmt.Fscan(r, &x); err != nil {
			break
		}
		count++
		sum += x
	}
	fmt.Println("scanned", count, sum, err)
}

// scanSum reads n integers from standard input with fmt.Scan and
// returns their sum.
func scanSum(n int) int64 {
	var x, sum int64
	for range n {
		fmt.Scan(&x)
		sum += x
	}
	return sum
}

// atoi is ARGS[i] as a number, or -1 if there is no such argument.
func atoi(args []string, i int) int {
	if i >= len(args) {
		return -1
	}
	n, _ := strconv.Atoi(args[i])
	return n
}

// offset prints f's offset as Seek and as the kernel (lseek on its
// descriptor, rawOffset) see it.
func offset(what string, f *os.File) {
	at, err := f.Seek(0, io.SeekCurrent)
	k, kerr := rawOffset(f)
	fmt.Println(what, "Seek", at, err, "lseek", k, kerr)
}

// collect runs the garbage collector, and with it the finalizers that
// close the files the program dropped, n times, letting them run.
func collect(n int) {
	for i := 0; i < n; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// readAll has four goroutines read the file file(g), g from 0 to 3,
// in Reads of 1, 6, 11 and 16 bytes to its end, and returns how many
// bytes they read and the sum of their values.
func readAll(file func(g int) *os.File) string {
	var mu sync.Mutex
	var n, sum int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := file(g)
			p := make([]byte, 1+g*5)
			for {
				k, err := f.Read(p)
				mu.Lock()
				n += int64(k)
				for _, c := range p[:k] {
					sum += int64(c)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return fmt.Sprint(n, " ", sum)
}

// wait blocks until standard input ends.
func wait() { io.Copy(io.Discard, os.Stdin) }

var cases = map[string]func(path string, args []string){
	// The Fprintf loop; main returns without Close.
	"fprintf": func(path string, _ []string) { fill(create(path)) },
	// The same lines to a file opened with O_SYNC, each of whose writes
	// the program asked to reach the device: -files leaves it plain.
	"newfilesync": func(path string, _ []string) {
		// An O_SYNC descriptor the program opened itself, made a *File
		// by os.NewFile: its flags are not os.OpenFile's.
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_SYNC|syscall.O_CLOEXEC, 0o644)
		fill(opened(os.NewFile(uintptr(fd), path), err))
	},
	"syncfill": func(path string, _ []string) {
		fill(opened(os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_SYNC, 0o644)))
	},
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
	// Standard output is the file at path: what a read through another
	// *File, opened before the line, and os.Stat of the path see of it.
	"readout": func(path string, _ []string) {
		f := open(path)
		fmt.Println("hello")
		b, err := io.ReadAll(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		fmt.Println("world")
		fi, err := os.Stat(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return
		}
		fmt.Fprintln(os.Stderr, len(b), fi.Size())
	},
	// The file written whole by os.WriteFile, and nothing else: no
	// buffer holds a byte.
	"writefile": func(path string, _ []string) {
		var b strings.Builder
		fill(&b)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	},
	// The size of os's file struct, to which *File points, and of a
	// word.
	"filestruct": func(path string, _ []string) {
		f := create(path)
		fmt.Fprintln(f, reflect.TypeOf(os.File{}).Field(0).Type.Elem().Size(), reflect.TypeOf(uintptr(0)).Size())
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
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
		if err := limitFiles(64); err != nil {
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
	// A stubborn program: it writes lines until a Write fails, then
	// writes a hundred more, and says how many of those failed. A write
	// error sticks, as bufio's does: under -files the flush that meets
	// it may have written part of the buffer, leaving room that must
	// not take later Writes, which the plain build's write(2)s fail.
	"stubborn": func(path string, _ []string) {
		f := create(path)
		var first error
		failed, after := 0, 0
		for i := 0; after < 100 && i < 1<<20; i++ {
			_, err := fmt.Fprintf(f, "line %07d of a file that fills the disk\n", i)
			if first == nil {
				first = err
				continue
			}
			after++
			if err != nil {
				failed++
			}
		}
		fmt.Fprintf(os.Stderr, "stubborn: %v; then %d of %d writes failed\n", first, failed, after)
		os.Exit(3)
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
	// A program that checks every Encode but closes with defer f.Close(),
	// dropping Close's error, prints "saved" and exits 0; a failed Encode
	// exits 1.
	"deferclose": func(path string, _ []string) {
		f := create(path)
		defer f.Close()
		// An empty first Write, which a full disk takes: under -files a
		// file's first Write is plain, and the records after it go into
		// its buffer.
		f.WriteString("")
		enc := json.NewEncoder(f)
		for i := 0; i < 20; i++ {
			if err := enc.Encode(map[string]int{"record": i}); err != nil {
				fmt.Fprintln(os.Stderr, "deferclose:", err)
				os.Exit(1)
			}
		}
		fmt.Println("saved")
	},
	// A program that checks every Write and its Close, and exits 3 with
	// its own message at the first error.
	"checkclose": func(path string, _ []string) {
		f := create(path)
		for i := 0; i < 20; i++ {
			if _, err := fmt.Fprintf(f, "record %d\n", i); err != nil {
				fmt.Fprintln(os.Stderr, "checkclose:", err)
				os.Exit(3)
			}
		}
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "checkclose:", err)
			os.Exit(3)
		}
	},
	// A program that checks every Write, calls Sync and drops its error,
	// prints "saved" and exits 0; a failed Write exits 1.
	"syncdrop": func(path string, _ []string) {
		f := create(path)
		f.WriteString("") // as deferclose's
		for i := 0; i < 20; i++ {
			if _, err := fmt.Fprintf(f, "record %d\n", i); err != nil {
				fmt.Fprintln(os.Stderr, "syncdrop:", err)
				os.Exit(1)
			}
		}
		f.Sync()
		fmt.Println("saved")
	},
	// fmt.Scan of ARGS[0] integers (all if none) from standard input.
	"scan": func(_ string, args []string) {
		var count, sum int64
		var err error
		for n := atoi(args, 0); n < 0 || count < int64(n); {
			var x int64
			if _, err = fmt.Scan(&x); err != nil {
				break
			}
			count++
			sum += x
		}
		fmt.Println("scanned", count, sum, err)
	},
	// fmt.Scan of ARGS[0] integers from standard input after a line
	// already written out: the program ends with nothing to write.
	"scanquiet": func(_ string, args []string) {
		fmt.Println("scanning")
		os.Stdout.Sync()
		scanSum(atoi(args, 0))
	},
	// fmt.Scan of ARGS[0] integers from standard input, then says
	// ready (which gives a read buffer back), scans one more integer,
	// and sleeps until the test kills it.
	"scanwait": func(_ string, args []string) {
		scanSum(atoi(args, 0))
		fmt.Println("ready")
		os.Stdout.Sync()
		scanSum(1)
		time.Sleep(time.Minute)
	},
	// fmt.Scan of ARGS[0] integers from standard input, then Exec of
	// cat, which reads the rest.
	"scanexec": func(_ string, args []string) {
		sum := scanSum(atoi(args, 0))
		fmt.Println("before exec", sum)
		cat, err := exec.LookPath("cat")
		if err == nil {
			err = syscall.Exec(cat, []string{"cat"}, os.Environ())
		}
		fmt.Println(err)
	},
	// fmt.Scan of ARGS[0] integers from standard input, then a panic.
	"scanpanic": func(_ string, args []string) {
		scanSum(atoi(args, 0))
		panic("files: the panic the test asks for")
	},
	// fmt.Fscan of the integers of the file, opened with os.Open.
	"fscan": func(path string, _ []string) { scanInts(open(path), -1) },
	// Two *Files read the same file, each through a buffer of its own:
	// Fscan of each in turn, a write through a third over lines both
	// read next, then each to the end.
	"twofscan": func(path string, _ []string) {
		a, b := open(path), open(path)
		scanInts(a, 100)
		scanInts(b, 150)
		w := opened(os.OpenFile(path, os.O_WRONLY, 0))
		// Lines 201 and 202 (7 bytes each), which both buffers hold.
		if _, err := w.WriteAt([]byte("111111\n222222\n"), 7*200); err != nil {
			fmt.Println(err)
		}
		scanInts(a, 150)
		scanInts(b, 100)
		if err := w.Close(); err != nil {
			fmt.Println(err)
		}
		scanInts(a, -1)
		scanInts(b, -1)
	},
	// A file open for reading and writing (with O_APPEND too if the
	// argument is "append"): Fscan, a write where the scan stopped (or
	// at the end), Fscan on, another write, Fscan to the end.
	"rdwr": func(path string, args []string) {
		flag := os.O_RDWR
		if len(args) > 0 && args[0] == "append" {
			flag |= os.O_APPEND
		}
		f := opened(os.OpenFile(path, flag, 0))
		scanInts(f, 100)
		fmt.Fprintf(f, "%d\n", 888888)
		scanInts(f, 100)
		fmt.Fprintf(f, "%d\n%d\n", 999999, 777777)
		scanInts(f, -1)
		if err := f.Close(); err != nil {
			fmt.Println(err)
		}
	},
	// A file open for reading and writing, made with a few integers:
	// Fscan of them, then the lines of fill.
	"rdwrfill": func(path string, _ []string) {
		if err := os.WriteFile(path, []byte("1\n2\n3\n"), 0o644); err != nil {
			fmt.Println(err)
			return
		}
		f := opened(os.OpenFile(path, os.O_RDWR, 0))
		scanInts(f, 3)
		fill(f)
		if err := f.Close(); err != nil {
			fmt.Println(err)
		}
	},
	// Fscan of a file open for reading and writing to its end, then a
	// line written there.
	"rdwrscan": func(path string, _ []string) {
		f := opened(os.OpenFile(path, os.O_RDWR, 0))
		scanInts(f, -1)
		fmt.Fprintf(f, "%d\n", 666666)
		if err := f.Close(); err != nil {
			fmt.Println(err)
		}
	},
	// binary.Read of 16-byte records from the file to its end.
	"binread": func(path string, _ []string) {
		f := open(path)
		var count, a, b int64
		var err error
		for {
			var r struct{ A, B int64 }
			if err = binary.Read(f, binary.LittleEndian, &r); err != nil {
				break
			}
			count++
			a += r.A
			b ^= r.B
		}
		fmt.Println("records", count, a, b, err)
	},
	// os.Stdin.Read of one byte at a time to the end.
	"bytes": func(_ string, _ []string) {
		var c [1]byte
		var n, lines, sum int64
		for {
			k, err := os.Stdin.Read(c[:])
			if k == 1 {
				n++
				sum = sum*31 + int64(c[0])
				if c[0] == '\n' {
					lines++
				}
			}
			if err != nil {
				fmt.Println("bytes", n, lines, sum, err)
				return
			}
		}
	},
	// The heap allocations of a Read into an array on the caller's
	// stack, of the file and of standard input, and of a Write from one,
	// to a file of its own and to standard output: none, as plainly.
	// And, on Linux, those of os.WriteFile of a new file while a buffer
	// holds bytes (out's, from the Writes before; a generator's output
	// beside its log): as many as plainly. Elsewhere files have no
	// identity, so such an open tries no O_EXCL: its fstat decides the
	// file it truncated (stdioTruncated), at a call and an allocation.
	"allocs": func(path string, _ []string) {
		in, out := open(path), create(path+".out")
		names := make([]string, 0, 300)
		for i := range cap(names) {
			names = append(names, path+".new"+strconv.Itoa(i))
		}
		data := []byte("a new file\n")
		type allocOp struct {
			name string
			op   func()
		}
		ops := []allocOp{
			{"Read of the file", func() { var p [16]byte; in.Read(p[:]) }},
			{"Read of standard input", func() { var p [16]byte; os.Stdin.Read(p[:]) }},
			{"Write to a file", func() { p := [4]byte{'a', 'b', 'c', '\n'}; out.Write(p[:]) }},
			{"Write to standard output", func() { p := [2]byte{'.', '\n'}; os.Stdout.Write(p[:]) }},
		}
		if runtime.GOOS == "linux" {
			ops = append(ops, allocOp{"WriteFile of a new file", func() {
				os.WriteFile(names[0], data, 0o644)
				names = names[1:]
			}})
		}
		for _, o := range ops {
			n := testing.AllocsPerRun(200, o.op)
			fmt.Println("allocs per", o.name, n)
		}
	},
	// A goroutine waits in a Read of standard input, a pipe that gets
	// nothing; standard input is closed; another Read follows, the
	// first small one (the first asked for more than a buffer), which
	// returns the closed file's error at once.
	"stdinclose": func(_ string, _ []string) {
		started := make(chan struct{})
		go func() {
			var p [8192]byte
			close(started)
			os.Stdin.Read(p[:])
		}()
		<-started
		time.Sleep(200 * time.Millisecond)
		fmt.Println("close:", os.Stdin.Close())
		done := make(chan error, 1)
		go func() {
			var p [16]byte
			_, err := os.Stdin.Read(p[:])
			done <- err
		}()
		select {
		case err := <-done:
			fmt.Println("read after close:", err)
		case <-time.After(5 * time.Second):
			fmt.Println("read after close: still waiting after 5 s")
		}
	},
	// os.Stdin.Read of one byte ARGS[0] times, then of 12345 bytes (more
	// than a read buffer) to the end: Reads that a read buffer sends
	// straight to the kernel.
	"bigread": func(_ string, args []string) {
		var n, sum int64
		small := atoi(args, 0)
		p := make([]byte, 12345)
		for i := 0; ; i++ {
			size := len(p)
			if i < small {
				size = 1
			}
			k, err := os.Stdin.Read(p[:size])
			n += int64(k)
			for _, c := range p[:k] {
				sum = sum*31 + int64(c)
			}
			if err != nil {
				fmt.Println("bigread", n, sum, err)
				return
			}
		}
	},
	// os.Stdin.Read of one byte at a time to the end, each byte
	// written to the file: what the program read, for a test that
	// shares standard input with another reader.
	"copybytes": func(path string, _ []string) {
		f := create(path)
		var c [1]byte
		for {
			k, err := os.Stdin.Read(c[:])
			f.Write(c[:k])
			if err != nil {
				fmt.Println("copied", err)
				return
			}
		}
	},
	// Reads of ARGS[0] bytes at a time from the file (the sizes of a
	// Read around the buffer's), each Read's count printed.
	"sizes": func(path string, args []string) {
		f := open(path)
		p := make([]byte, atoi(args, 0))
		var counts []int
		sum := int64(0)
		for {
			k, err := f.Read(p)
			counts = append(counts, k)
			for _, c := range p[:k] {
				sum = sum*31 + int64(c)
			}
			if err != nil {
				fmt.Println("reads", len(counts), counts[len(counts)-3:], sum, err)
				return
			}
		}
	},
	// fmt.Scan of ARGS[0] integers from standard input, then a child
	// that inherits standard input reads the rest.
	"scanchild": func(_ string, args []string) {
		sum := scanSum(atoi(args, 0))
		fmt.Println("parent", sum)
		cmd := exec.Command("cat")
		cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
		if err := cmd.Run(); err != nil {
			fmt.Println(err)
		}
		// The child read to the end, and the parent goes on from there.
		var x int64
		n, err := fmt.Scan(&x)
		fmt.Println("after the child", n, err)
	},
	// A child that inherits standard input reads a line of it while
	// the program reads ARGS[0] integers: each gets its own bytes.
	"scanwithchild": func(_ string, args []string) {
		cmd := exec.Command("sh", "-c", "sleep 0.5; head -c 7")
		cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		sum := scanSum(atoi(args, 0))
		err := cmd.Wait()
		var x int64
		n, serr := fmt.Scan(&x)
		fmt.Println("parent", sum, err, "then", n, x, serr)
	},
	// fmt.Scan of ARGS[0] integers, then a child that inherits
	// standard input and, after a pause, reads a line of it while the
	// program reads ARGS[1] more integers first: the child gets the
	// bytes after the program's, the program's next integer follows the
	// child's.
	"scanmidchild": func(_ string, args []string) {
		sum := scanSum(atoi(args, 0))
		cmd := exec.Command("sh", "-c", "sleep 0.5; head -c 7")
		cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			return
		}
		more := scanSum(atoi(args, 1))
		err := cmd.Wait()
		var x int64
		n, serr := fmt.Scan(&x)
		fmt.Println("parent", sum, more, err, "then", n, x, serr)
	},
	// fmt.Scan of ARGS[0] integers from standard input, then Close of
	// standard input: the shell's next command reads the rest.
	"scanclose": func(_ string, args []string) {
		sum := scanSum(atoi(args, 0))
		fmt.Println("closed", sum, os.Stdin.Close())
	},
	// Small reads, then the offset as Seek and the descriptor see it,
	// then more reads from there, and from the start again.
	"seek": func(path string, _ []string) {
		f := open(path)
		scanInts(f, 5)
		offset("after 5", f)
		scanInts(f, 7)
		offset("after 12", f)
		f.Seek(3, io.SeekStart)
		scanInts(f, 2)
		fi, err := f.Stat()
		fmt.Println("Stat", fi.Size(), err)
		offset("after Stat", f)
		var b [10]byte
		n, err := f.ReadAt(b[:], 2)
		fmt.Printf("ReadAt %q %v\n", b[:n], err)
		scanInts(f, 2)
		offset("after ReadAt", f)
		scanInts(f, 2)
		rest := create(path + ".rest")
		k, err := io.Copy(rest, f)
		fmt.Println("copied", k, err)
		fmt.Println("Close", f.Close())
		_, err = f.Read(b[:1])
		fmt.Println("Read after Close:", err)
	},
	// Four goroutines read the file through one *File in small Reads:
	// every byte is read once.
	// fmt.Fscan, Fscanln and Fscanf of words, integers, runes of two
	// and three bytes, bytes that are not UTF-8 and a rune cut short, a
	// Scanner of its own, one that reads the file itself (fileByte),
	// and one-byte Reads between them that show
	// where each scan left the file; ARGS[0] blocks of mixBlock (it
	// writes FILE first), so that buffers end inside runes. With ARGS[1]
	// "stdin", the same of standard input, which holds the blocks.
	"scanmix": func(path string, args []string) {
		f := os.Stdin
		if len(args) < 2 || args[1] != "stdin" {
			if err := os.WriteFile(path, []byte(strings.Repeat(mixBlock, atoi(args, 0))), 0o644); err != nil {
				opened[*os.File](nil, err)
			}
			f = open(path)
		}
		var out strings.Builder
		var one [1]byte
		for {
			var i, j int
			var s, t string
			var tok token
			var ok bool
			n, err := fmt.Fscan(f, &i, &s)
			fmt.Fprintf(&out, "%d %q %d %v|", i, s, n, err)
			if err == io.EOF {
				break
			}
			n, err = fmt.Fscan(f, &s, &i)
			fmt.Fprintf(&out, "%q %d %d %v|", s, i, n, err)
			n, err = fmt.Fscan(f, &s, &j)
			fmt.Fprintf(&out, "%q %d %d %v|", s, j, n, err)
			n, err = fmt.Fscanln(f, &t, &i)
			fmt.Fprintf(&out, "%q %d %d %v|", t, i, n, err)
			n, err = fmt.Fscanf(f, "line %d %s\n", &i, &s)
			fmt.Fprintf(&out, "%d %q %d %v|", i, s, n, err)
			n, err = fmt.Fscan(f, &tok)
			fmt.Fprintf(&out, "%q %d %v|", tok, n, err)
			m, err := f.Read(one[:])
			fmt.Fprintf(&out, "%q %d %v|", one[:m], m, err)
			n, err = fmt.Fscan(f, &ok)
			fmt.Fprintf(&out, "%v %d %v|", ok, n, err)
			fb := fileByte{f: f}
			n, err = fmt.Fscan(f, &fb)
			fmt.Fprintf(&out, "%q %d %v\n", fb.got, n, err)
		}
		rest, err := io.ReadAll(f)
		fmt.Printf("%s%q %v\n", out.String(), rest, err)
	},
	"concurrent": func(path string, _ []string) {
		f := open(path)
		fmt.Println("read", readAll(func(int) *os.File { return f }))
	},
	// Four goroutines read standard input in small Reads: every byte
	// is read once.
	// Standard input read to its end by a goroutine in Reads of 4096
	// bytes, which never count toward the decision, and three in Reads
	// of one byte, whose 64th decides a pipe: prints the bytes read.
	"stdinmixed": func(_ string, _ []string) {
		var mu sync.Mutex
		var total int
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := make([]byte, 1)
				if g == 0 {
					p = make([]byte, 4096)
				}
				for {
					n, err := os.Stdin.Read(p)
					mu.Lock()
					total += n
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
		}
		wg.Wait()
		fmt.Println("read", total)
	},
	// fmt.Scan of 100 integers, then a raw read(2) of standard input
	// (a reader -files cannot see) takes what the pipe holds, then a
	// line on standard error (where buffers are given back) and fmt.Scan
	// to the end: prints how many it scanned.
	"scanraw": func(_ string, _ []string) {
		var x, n int
		for ; n < 100; n++ {
			if _, err := fmt.Scan(&x); err != nil {
				break
			}
		}
		syscall.Read(0, make([]byte, 1<<16))
		fmt.Fprintln(os.Stderr, "drained")
		fmt.Println("drained")
		for {
			if _, err := fmt.Scan(&x); err != nil {
				break
			}
			n++
		}
		fmt.Println("scanned", n > 100)
	},
	// 100 one-byte Reads of standard input, then a Read of 8192 bytes
	// that waits for the pipe's writer while a child is handed
	// standard input: prints how many descriptors beyond the standard
	// three are pipes at the end.
	"directchild": func(_ string, _ []string) {
		one := make([]byte, 1)
		for range 100 {
			if _, err := os.Stdin.Read(one); err != nil {
				opened[*os.File](nil, err)
			}
		}
		done := make(chan int)
		go func() {
			n, _ := os.Stdin.Read(make([]byte, 8192))
			done <- n
		}()
		time.Sleep(200 * time.Millisecond)
		c := exec.Command("true")
		c.Stdin = os.Stdin
		c.Run()
		fmt.Fprintln(os.Stderr, "child ran")
		<-done
		pipes := 0
		ents, _ := os.ReadDir("/proc/self/fd")
		for _, e := range ents {
			l, _ := os.Readlink("/proc/self/fd/" + e.Name())
			if n, _ := strconv.Atoi(e.Name()); n > 2 && strings.HasPrefix(l, "pipe:") {
				pipes++
			}
		}
		fmt.Println("pipes beyond the standard three:", pipes)
	},
	"stdinconcurrent": func(_ string, _ []string) {
		fmt.Println("read", readAll(func(int) *os.File { return os.Stdin }))
	},
	// fmt.Scan of 100 integers from standard input, then four
	// goroutines read the rest, one through os.Stdin, one through
	// another *File on descriptor 0, two through a file opened as
	// /dev/stdin: every byte is read once.
	"stdinsiblings": func(_ string, _ []string) {
		sum := scanSum(100)
		other := os.NewFile(0, "stdin")
		dev := open("/dev/stdin")
		fmt.Println("scanned", sum, "read", readAll(func(g int) *os.File {
			return []*os.File{os.Stdin, other, dev, dev}[g]
		}))
		runtime.KeepAlive(other)
	},
	// A read buffer meets writes through another *File on the same
	// file: each read sees every byte written before it.
	"coherent": func(path string, _ []string) {
		r := open(path)
		scanInts(r, 3)
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			fmt.Println(err)
			return
		}
		// Over the fifth line on (the lines have 7 bytes): the integers
		// r reads next change.
		at := 4 * 7
		w.WriteAt([]byte("111111\n222222\n"), int64(at))
		scanInts(r, 3)
		w.Seek(int64(at+7*3), io.SeekStart)
		fmt.Fprintf(w, "%d\n%d\n", 333333, 444444)
		scanInts(r, 3)
		// Written through w, read through a new *File while w may still
		// hold the bytes.
		fmt.Fprintf(w, "%d\n", 555555)
		g := open(path)
		scanInts(g, 8)
		// And back through r after another write.
		w.Seek(0, io.SeekEnd)
		fmt.Fprintf(w, "%d\n", 777777)
		scanInts(r, -1)
		// A file with a write buffer, read through another *File.
		w2 := create(path + ".2")
		fmt.Fprintf(w2, "%d\n%d\n%d\n", 1, 2, 3)
		r2 := open(path + ".2")
		scanInts(r2, 2)
		fmt.Fprintf(w2, "%d\n%d\n", 4, 5)
		scanInts(r2, -1)
	},
	// A log written plainly per record (O_SYNC: no buffer) while the
	// file is read through its buffer; then the log read through a
	// buffer of its own, and overwritten under it.
	"coherentlog": func(path string, _ []string) {
		r := open(path)
		scanInts(r, 3)
		lg, err := os.OpenFile(path+".log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_SYNC, 0o644)
		if err != nil {
			fmt.Println(err)
			return
		}
		for i := 1; i <= 8; i++ {
			fmt.Fprintf(lg, "%06d\n", i)
			scanInts(r, 1)
		}
		g := open(path + ".log")
		scanInts(g, 2)
		lg.WriteAt([]byte("999999\n"), 4*7)
		scanInts(r, 1)
		scanInts(g, -1)
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

// mixBlock is the input of the scanmix case, repeated.
const mixBlock = "12 h\u00e9llo\n\u65e5\u672c\u8a9e -7\n\xff\xfe 42\nabc\xe2\x82 9\nline 5 x\n3.5 true\n"

// fileByte is a Scanner that reads its file itself, a byte, with Read,
// not through the scan state: a scan that held the file's buffer for its
// whole length would wait for itself.
type fileByte struct {
	f   *os.File
	got string
}

func (b *fileByte) Scan(fmt.ScanState, rune) error {
	var one [1]byte
	n, err := b.f.Read(one[:])
	b.got = string(one[:n])
	return err
}

// token is a Scanner of its own: fmt hands it the scan state, and the
// call reads as it does plainly.
type token string

func (k *token) Scan(st fmt.ScanState, _ rune) error {
	b, err := st.Token(true, nil)
	*k = token(b)
	return err
}
