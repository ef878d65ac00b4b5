//go:build linux

// Command prog holds the programs of bench/pathops: ordinary Go programs
// that mix a record of output per file with other file work, written as
// a Go programmer writes them, with the standard library and no bufio;
// with -bufio, the same with a bufio.Writer (or Reader) added by hand
// where a careful programmer adds one. pathops builds it plainly and
// with stdiobuf build -stdout and -files.
//
//	prog [-bufio] NAME ARGS...
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

var byHand = flag.Bool("bufio", false, "add bufio by hand")

func main() {
	flag.Parse()
	args := flag.Args()
	if len(args) < 1 {
		fail(fmt.Errorf("usage: prog [-bufio] NAME ARGS"))
	}
	p, ok := programs[args[0]]
	if !ok {
		fail(fmt.Errorf("no program %q", args[0]))
	}
	p(args[1:])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "prog:", err)
	os.Exit(2)
}

func must[T any](v T, err error) T {
	if err != nil {
		fail(err)
	}
	return v
}

// writer is w, with a bufio.Writer over it under -bufio, and the flush
// to call at the end.
func writer(w io.Writer) (io.Writer, func()) {
	if !*byHand {
		return w, func() {}
	}
	bw := bufio.NewWriter(w)
	return bw, func() { must(0, bw.Flush()) }
}

// reader is r, with a bufio.Reader over it under -bufio.
func reader(r io.Reader) io.Reader {
	if !*byHand {
		return r
	}
	return bufio.NewReader(r)
}

var programs = map[string]func(args []string){
	// walker DIR: a line per file, its path and size, on standard output.
	"walker": func(args []string) {
		out, flush := writer(os.Stdout)
		must(0, filepath.WalkDir(args[0], func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			fmt.Fprintln(out, p, fi.Size())
			return nil
		}))
		flush()
	},
	// statreport LIST REPORT: os.Stat of each name of the file LIST, a
	// line per name to REPORT.
	"statreport": func(args []string) {
		names := strings.Fields(string(must(os.ReadFile(args[0]))))
		f := must(os.Create(args[1]))
		out, flush := writer(f)
		for _, n := range names {
			fi, err := os.Stat(n)
			if err != nil {
				fmt.Fprintf(out, "%s: %v\n", n, err)
				continue
			}
			fmt.Fprintf(out, "%s %d %s\n", n, fi.Size(), fi.Mode())
		}
		flush()
		must(0, f.Close())
	},
	// grepr DIR WORD REPORT: the files under DIR that hold WORD, a line
	// each to REPORT.
	"grepr": func(args []string) {
		f := must(os.Create(args[2]))
		out, flush := writer(f)
		must(0, filepath.WalkDir(args[0], func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), args[1]) {
				fmt.Fprintln(out, p)
			}
			return nil
		}))
		flush()
		must(0, f.Close())
	},
	// generator SRC DST LOG: each file of SRC, upper-cased, to a file of
	// DST, a line per file to the log LOG.
	"generator": func(args []string) {
		lf := must(os.OpenFile(args[2], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644))
		lw, flush := writer(lf)
		l := log.New(lw, "generator: ", log.Lmicroseconds)
		for _, d := range must(os.ReadDir(args[0])) {
			b := must(os.ReadFile(filepath.Join(args[0], d.Name())))
			out := filepath.Join(args[1], d.Name()+".out")
			must(0, os.WriteFile(out, []byte(strings.ToUpper(string(b))), 0o644))
			l.Printf("wrote %s (%d bytes)", out, len(b))
		}
		flush()
		must(0, lf.Close())
	},
	// transform IN OUT: each number of IN, and its square, a line to OUT.
	"transform": func(args []string) {
		in := must(os.Open(args[0]))
		f := must(os.Create(args[1]))
		r := reader(in)
		out, flush := writer(f)
		for {
			var n int64
			if _, err := fmt.Fscan(r, &n); err != nil {
				break
			}
			fmt.Fprintf(out, "%d %d\n", n, n*n)
		}
		flush()
		must(0, f.Close())
		must(0, in.Close())
	},
	// recreader IN: 16-byte records of IN (two uint64), a line per
	// record on standard error. -bufio buffers the input only: standard
	// error stays unbuffered, as C's stderr and -files leave it, so that
	// each line is out when its record is read.
	"recreader": func(args []string) {
		in := must(os.Open(args[0]))
		r := reader(in)
		var rec [2]uint64
		for i := 0; ; i++ {
			if err := binary.Read(r, binary.LittleEndian, &rec); err != nil {
				break
			}
			fmt.Fprintf(os.Stderr, "record %d: %d %d\n", i, rec[0], rec[1])
		}
	},
	// smallfiles DIR N: N files of a line each, written with
	// os.WriteFile.
	"smallfiles": func(args []string) {
		n := must(strconv.Atoi(args[1]))
		for i := 0; i < n; i++ {
			must(0, os.WriteFile(filepath.Join(args[0], "f"+strconv.Itoa(i)), []byte("file "+strconv.Itoa(i)+"\n"), 0o644))
		}
	},
	// manyopen DIR N: N files open at once, a line written to each, then
	// all closed.
	"manyopen": func(args []string) {
		n := must(strconv.Atoi(args[1]))
		lim := syscall.Rlimit{Cur: uint64(n + 100), Max: uint64(n + 100)}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			fail(fmt.Errorf("raising RLIMIT_NOFILE to %d: %v", lim.Cur, err))
		}
		files := make([]*os.File, n)
		flushes := make([]func(), n)
		for i := range files {
			files[i] = must(os.Create(filepath.Join(args[0], "f"+strconv.Itoa(i))))
			var w io.Writer
			w, flushes[i] = writer(files[i])
			fmt.Fprintf(w, "file %d of %d\n", i, n)
		}
		for i, f := range files {
			flushes[i]()
			must(0, f.Close())
		}
	},
	// pipeblocks: standard input read in 32 KiB blocks, its bytes and
	// lines counted.
	"pipeblocks": func([]string) {
		buf := make([]byte, 32<<10)
		var n, lines int
		for {
			k, err := os.Stdin.Read(buf)
			n += k
			lines += strings.Count(string(buf[:k]), "\n")
			if err != nil {
				break
			}
		}
		fmt.Println(n, lines)
	},
}
