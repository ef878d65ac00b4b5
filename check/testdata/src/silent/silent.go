// Package silent holds what the analyzer must not report: I/O that is
// already buffered, large reads, single calls and error reporting.
package silent

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
)

func buffered(f *os.File, xs []int) error {
	w := bufio.NewWriter(f)
	for _, x := range xs {
		fmt.Fprintln(w, x)
	}
	return w.Flush()
}

func copies(dst, src *os.File) error {
	for i := 0; i < 10; i++ {
		if _, err := io.Copy(dst, src); err != nil {
			return err
		}
	}
	return nil
}

func csvWriter(f *os.File, rows [][]string) error {
	w := csv.NewWriter(f)
	for _, r := range rows {
		w.Write(r)
	}
	w.Flush()
	return w.Error()
}

func scanner(f *os.File) (n int, err error) {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

func bufferedReads(f *os.File) {
	r := bufio.NewReader(f)
	var x int
	for {
		if _, err := fmt.Fscan(r, &x); err != nil {
			return
		}
	}
}

func largeReads(f *os.File) {
	buf := make([]byte, 4096)
	for {
		if _, err := f.Read(buf); err != nil {
			return
		}
	}
}

func once(f *os.File) {
	fmt.Println("hello")
	fmt.Fprintf(f, "%d\n", 1)
	f.WriteString("x")
	var n int
	fmt.Scan(&n)
}

func errorReports(files []string) {
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		if errors.Is(err, os.ErrNotExist) {
			fmt.Printf("%s: missing\n", name)
		}
		f.Close()
	}
}

func constantLoops(f *os.File) {
	for i := 0; i < 3; i++ {
		fmt.Fprintln(f, i)
	}
	for _, s := range []string{"usage:", "  -v  verbose"} {
		fmt.Println(s)
	}
	var pair [2]string
	for _, s := range pair {
		fmt.Println(s)
	}
}

func notAFile(w io.Writer, b *strings.Builder, xs []int) {
	for _, x := range xs {
		fmt.Fprintln(w, x)
		fmt.Fprintln(b, x)
	}
}

// maybeFile's out is sometimes not a file.
func maybeFile(b *strings.Builder, xs []int) {
	var out io.Writer = os.Stdout
	if len(xs) > 9 {
		out = b
	}
	for _, x := range xs {
		fmt.Fprintln(out, x)
	}
}

func inClosure(xs []int) {
	for _, x := range xs {
		defer func() { fmt.Println(x) }()
	}
	func() { fmt.Println("once") }()
}

func defaultLog(xs []int) {
	for _, x := range xs {
		log.Printf("x=%d", x) // log's output is not set to a file here
	}
}

// perFile writes one file per iteration: there is nothing to buffer
// across iterations.
func perFile(names []string) error {
	for _, name := range names {
		fp, err := os.Create(name)
		if err != nil {
			return err
		}
		fp.Write([]byte("\n"))
		fmt.Fprintln(fp, name)
		fp.Close()
	}
	return nil
}

// memoryScanner scans a string: it has no read error to check.
func memoryScanner(doc string) (n int) {
	sc := bufio.NewScanner(strings.NewReader(doc))
	for sc.Scan() {
		n++
	}
	return n
}

// leaving writes once, before it leaves the loop.
func leaving(inputs []string, xs []int) int {
	for _, in := range inputs {
		if in == "-" {
			fmt.Fprintf(os.Stderr, "ERROR: cannot use - here\n")
			os.Exit(1)
		}
		if in == "" {
			fmt.Println("empty")
			break
		}
		if in == "?" {
			fmt.Println("what")
			return 1
		}
	}
	return 0
}

// memoryVariable scans a reader over memory held in a variable.
func memoryVariable(b []byte) (n int) {
	r := bytes.NewReader(b)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		n++
	}
	return n
}

const debug = false

// deadDebug prints only in code that cannot run.
func deadDebug(xs []int) {
	if false {
		for _, x := range xs {
			fmt.Println(x)
		}
	}
	for _, x := range xs {
		if debug {
			fmt.Println(x)
		}
	}
}

// unusedDescribe is never called: dead code kept for debugging.
func unusedDescribe(xs []int) {
	for _, x := range xs {
		fmt.Println(x)
	}
}

func internalErrors(xs []int) (nerrors int) {
	for i, x := range xs {
		if x == i {
			fmt.Printf("bug: %d twice\n", x)
			nerrors++
		}
	}
	return nerrors
}
