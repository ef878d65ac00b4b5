// Package ipmain gives package iplib's writers files: each per-record
// write is reported where the file is known, with the chain of calls
// down to the write, and names the one flag that changes it.
package ipmain

import (
	"bufio"
	"fmt"
	"io"
	"iplib"
	"os"
	"syscall"
)

// A per-record write in a callee of another package, to standard output
// and to another file.
func report(f *os.File, rows []iplib.Row) {
	iplib.Report(os.Stdout, rows) // want `^per-record write to os.Stdout via iplib.Report\(w\) -> iplib.writeRow\(w\): fmt.Fprintf \(iplib.go:32\) makes one system call per record; write through a bufio.Writer flushed on every path, or build with stdiobuf build -stdout$`
	iplib.Report(f, rows)         // want `^per-record write to f via iplib.Report\(w\) -> iplib.writeRow\(w\): fmt.Fprintf \(iplib.go:32\) .*, or build with stdiobuf build -files$`
}

// A callee that writes once, called per record.
func rows(rows []iplib.Row) {
	for _, r := range rows {
		iplib.WriteRow(os.Stdout, r) // want `^per-record write to os.Stdout via iplib.WriteRow\(w\): fmt.Fprintf \(iplib.go:37\) .*-stdout$`
	}
}

// A struct field set from the file by the callee's package.
func writer(f *os.File, rows []iplib.Row) {
	w := iplib.NewWriter(f)
	for _, r := range rows {
		w.Write(r) // want `^per-record write to f via \(\*iplib.Writer\).Write\(w.w\): Writer.Write \(iplib.go:87\) .*-files$`
	}
}

// A func value closing over the file, made in the callee's package.
func encoders(f *os.File, rows []iplib.Row) {
	enc := iplib.NewJSONEncoder(f)
	for _, r := range rows {
		enc.Encode(r) // want `^per-record write to f via \(iplib.Encoder\).Encode\(e\) -> iplib.NewJSONEncoder\(w\): json.Encoder.Encode \(iplib.go:103\) .*-files$`
	}
}

// A buffer of the program's own flushed per record: no flag changes it.
func csvEncoder(rows []iplib.Row) {
	enc := iplib.NewCSVEncoder(os.Stdout)
	for _, r := range rows {
		enc.Encode(r) // want `^per-record Flush of a buffer over os.Stdout via \(iplib.Encoder\).Encode\(e\) -> iplib.NewCSVEncoder\(w\): csv.Writer.Flush \(iplib.go:114\) writes once per record, which no stdiobuf build flag changes; flush once after the loop$`
	}
	bw := bufio.NewWriter(os.Stdout)
	for _, r := range rows {
		fmt.Fprintln(bw, r.Name)
		bw.Flush() // want `^per-record Flush of a buffer over os.Stdout: bufio.Writer.Flush \(ipmain.go:54\) writes once per record, which no stdiobuf build flag changes; flush once after the loop$`
	}
}

// A callback the callee calls per record.
func callback(rows []iplib.Row) {
	var out io.Writer = os.Stdout
	iplib.Each(rows, func(r iplib.Row) { // want `^per-record write to os.Stdout via iplib.Each\(fn\): fmt.Fprintln \(ipmain.go:62\) .*-stdout$`
		fmt.Fprintln(out, r.Name)
	})
}

// A field its package stores a file in, and one this package does.
func logs(msgs []string) {
	for _, m := range msgs {
		iplib.Default.Log(m) // want `^per-record write to os.Stdout via \(\*iplib.Logger\).Log\(l.Out\): fmt.Fprintln \(iplib.go:136\) .*-stdout$`
	}
	l := &iplib.Logger{Out: os.Stdout}
	for _, m := range msgs {
		l.Log(m) // want `^per-record write to os.Stdout via \(\*iplib.Logger\).Log\(l.Out\)`
	}
}

// A chain inside the package.
func run(rows []iplib.Row) {
	printAll(os.Stdout, rows) // want `^per-record write to os.Stdout via printAll\(w\) -> line\(w\): fmt.Fprintf \(ipmain.go:89\) .*-stdout$`
}

func printAll(w io.Writer, rows []iplib.Row) {
	for _, r := range rows {
		line(w, r)
	}
}

func line(w io.Writer, r iplib.Row) {
	fmt.Fprintf(w, "%s %d\n", r.Name, r.N)
}

// fmt.Println in a function called per record.
func shows(rows []iplib.Row) {
	for _, r := range rows {
		show(r) // want `^per-record write to os.Stdout via show\(\): fmt.Println \(ipmain.go:100\) .*-stdout$`
	}
}

func show(r iplib.Row) {
	fmt.Println(r.Name)
}

// A system call of the program's own: no flag buffers it.
func raw(f *os.File, recs [][]byte) {
	for _, b := range recs {
		syscall.Write(int(f.Fd()), b) // want `^syscall.Write in a loop writes to f unbuffered: one system call per record, which no stdiobuf build flag buffers .*; add a bufio.Writer over the file`
		syscall.Write(1, b)           // want `^syscall.Write in a loop writes to os.Stdout unbuffered`
		syscall.Write(2, b)
		syscall.Write(int(os.Stderr.Fd()), b)
	}
}
