// Command lines prints numbered lines to standard output, each only after
// the reader has answered the one before, so a line held in a buffer
// stops it for good:
//
//	lines stream|os N ACKDIR
//	lines socket N ADDR
//	lines ctrlc N -
//
// "stream" writes through a stream.Writer over os.Stdout and flushes only
// at the end; "os" writes with fmt.Println (under `stdiobuf build
// -stdout`, the generated os.Stdout's buffer). After line i it waits for
// the file ACKDIR/ack-i; ACKDIR "-" waits for nothing. At the end it
// writes to standard error the decision behind standard output: the
// Writer's Info for "stream", for "os" the Info of a bufio.Writer over
// os.Stdout (stream's decision for the same handle under the overlay;
// "no Info" in a plain build).
//
// "socket" prints N lines with fmt.Println, then tells the peer at the
// TCP address ADDR "done" and waits for it to close the connection: a
// peer that hears "done" finds the lines written, as in a plain build.
//
// "ctrlc" prints N lines with fmt.Println, says ctrlCMark on standard
// error, then sends its console a Ctrl-C, which it does not handle:
// Windows' default handler ends it, and the lines must be written, as in
// a plain build. If it is still running 10 seconds later it says so and
// exits with status 3.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"time"

	"github.com/stdiobuf/stdiobuf/stream"
)

// ctrlCMark tells the test that the program ran up to its Ctrl-C.
const ctrlCMark = "lines: sending Ctrl-C"

func main() {
	if len(os.Args) != 4 {
		fail("usage: lines stream|os N ACKDIR")
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fail(err.Error())
	}
	switch os.Args[1] {
	case "socket":
		tellPeer(n, os.Args[3])
		return
	case "ctrlc":
		for i := 1; i <= n; i++ {
			fmt.Println("line", i)
		}
		fmt.Fprintln(os.Stderr, ctrlCMark)
		if err := ctrlC(); err != nil {
			fail(err.Error())
		}
		time.Sleep(10 * time.Second)
		fmt.Fprintln(os.Stderr, "lines: still running 10 s after Ctrl-C")
		os.Exit(3)
	}
	ackDir := os.Args[3]
	var out io.Writer = os.Stdout
	var sw *stream.Writer
	switch os.Args[1] {
	case "stream":
		sw = stream.NewWriter(os.Stdout)
		out = sw
	case "os":
	default:
		fail("want stream or os, not " + os.Args[1])
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(out, "line %d\n", i)
		if ackDir != "-" {
			waitFor(filepath.Join(ackDir, "ack-"+strconv.Itoa(i)))
		}
	}
	var info any = "no Info"
	if sw != nil {
		info = sw.Info()
		if err := sw.Flush(); err != nil {
			fail(err.Error())
		}
	} else if m := reflect.ValueOf(bufio.NewWriter(os.Stdout)).MethodByName("Info"); m.IsValid() {
		info = m.Call(nil)[0].Interface()
	}
	fmt.Fprintf(os.Stderr, "info: %v\n", info)
}

// tellPeer prints n lines, tells the peer at addr "done" and waits for it
// to close the connection.
func tellPeer(n int, addr string) {
	for i := 1; i <= n; i++ {
		fmt.Println("line", i)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		fail(err.Error())
	}
	defer c.Close()
	if _, err := io.WriteString(c, "done\n"); err != nil {
		fail(err.Error())
	}
	if _, err := io.Copy(io.Discard, c); err != nil {
		fail(err.Error())
	}
}

// waitFor waits until the file name exists: the reader's answer.
func waitFor(name string) {
	for range 6000 {
		if _, err := os.Stat(name); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	fail("no answer in 60 s: " + name)
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "lines:", msg)
	os.Exit(2)
}
