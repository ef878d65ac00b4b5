// Command report does I/O through bufio, os.Stdout and *os.File for
// internal/osstdout's tests of the report at exit (STDIOBUF_REPORT), which
// build it with `stdiobuf build`, -stdout and -files and read its report.
// Usage: report CASE [ARGS]:
//
//	bufio DIR N     N lines through a bufio.Writer over DIR/out, flushed,
//	                then read back through a bufio.Scanner and a
//	                bufio.Reader; the files stay open until exit
//	println N       N lines to standard output with fmt.Println
//	files DIR N     N lines to DIR/out with fmt.Fprintln on the *os.File,
//	                left open
//	interleave DIR N  N lines to each of DIR/a and DIR/b, in turn, with
//	                fmt.Fprintln on the *os.File, both left open
//	exit CODE       one line through a bufio.Writer over standard output,
//	                flushed, then os.Exit(CODE)
//	stderr N        N lines to standard error with fmt.Fprintln
//	blocks DIR N    N lines to DIR/out in one os.WriteFile, then the file
//	                read back in Reads of 8192 bytes
//	fscan DIR N     N numbers to DIR/out in one os.WriteFile, then read
//	                back with fmt.Fscan from the *os.File
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	if len(os.Args) < 3 {
		fail("usage: report CASE ARGS")
	}
	switch os.Args[1] {
	case "bufio":
		bufioCase(os.Args[2], count(3))
	case "println":
		for i := range count(2) {
			fmt.Println("line", i)
		}
	case "files":
		f, err := os.Create(filepath.Join(os.Args[2], "out"))
		if err != nil {
			fail(err.Error())
		}
		for i := range count(3) {
			fmt.Fprintln(f, "line", i)
		}
	case "interleave":
		var files []*os.File
		for _, name := range []string{"a", "b"} {
			f, err := os.Create(filepath.Join(os.Args[2], name))
			if err != nil {
				fail(err.Error())
			}
			files = append(files, f)
		}
		for i := range count(3) {
			for _, f := range files {
				fmt.Fprintln(f, "line", i)
			}
		}
	case "stderr":
		for i := range count(2) {
			fmt.Fprintln(os.Stderr, "line", i)
		}
	case "blocks":
		name := writeLines(os.Args[2], count(3))
		f, err := os.Open(name)
		if err != nil {
			fail(err.Error())
		}
		buf := make([]byte, 8192)
		for {
			if _, err := f.Read(buf); err == io.EOF {
				break
			} else if err != nil {
				fail(err.Error())
			}
		}
	case "fscan":
		n := count(3)
		name := writeLines(os.Args[2], n)
		f, err := os.Open(name)
		if err != nil {
			fail(err.Error())
		}
		for range n {
			var word string
			var i int
			if _, err := fmt.Fscan(f, &word, &i); err != nil {
				fail(err.Error())
			}
		}
	case "exit":
		w := bufio.NewWriter(os.Stdout)
		fmt.Fprintln(w, "exiting")
		w.Flush()
		os.Exit(count(2))
	default:
		fail("report: unknown case " + os.Args[1])
	}
}

func bufioCase(dir string, n int) {
	name := filepath.Join(dir, "out")
	f, err := os.Create(name)
	if err != nil {
		fail(err.Error())
	}
	w := bufio.NewWriter(f)
	for i := range n {
		fmt.Fprintln(w, "line", i)
	}
	if err := w.Flush(); err != nil {
		fail(err.Error())
	}
	in, err := os.Open(name)
	if err != nil {
		fail(err.Error())
	}
	s := bufio.NewScanner(in)
	lines := 0
	for s.Scan() {
		lines++
	}
	if lines != n {
		fail("scanned " + strconv.Itoa(lines) + " lines")
	}
	in2, err := os.Open(name)
	if err != nil {
		fail(err.Error())
	}
	r := bufio.NewReader(in2)
	for {
		if _, err := r.ReadString('\n'); err == io.EOF {
			break
		} else if err != nil {
			fail(err.Error())
		}
	}
}

// writeLines writes n lines to dir/out in one os.WriteFile and returns
// its name.
func writeLines(dir string, n int) string {
	var b []byte
	for i := range n {
		b = fmt.Appendln(b, "line", i)
	}
	name := filepath.Join(dir, "out")
	if err := os.WriteFile(name, b, 0o666); err != nil {
		fail(err.Error())
	}
	return name
}

func count(i int) int {
	if len(os.Args) <= i {
		fail("report: missing count")
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fail(err.Error())
	}
	return n
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(2)
}
