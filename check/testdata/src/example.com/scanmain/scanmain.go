// Package scanmain implements scanlib's Handler: the library's loop calls
// it once per record, so its writes to a file are per record, reported
// at the call of the library.
package scanmain

import (
	"bufio"
	"bytes"
	"example.com/colorlib"
	"example.com/scanlib"
	"fmt"
	"io"
	"os"
)

type printer struct {
	out io.Writer
}

func (p *printer) Event(rec string) error { // want Event:`sink\(0.out call=false loop=false\)`
	_, err := fmt.Fprintln(p.out, rec)
	return err
}

// A handler over standard output, held in another package's variable.
func scanColor(in io.Reader) error {
	p := &printer{out: colorlib.Output}
	cfg := scanlib.Config{In: in, Handler: p}
	return scanlib.Scan(cfg) // want `^per-record write to os.Stdout via scanlib.Scan\(cfg.Handler\) -> \(\*printer\).Event\(p.out\): fmt.Fprintln \(scanmain.go:21\) makes one system call per record; write through a bufio.Writer flushed on every path, or build with stdiobuf build -stdout$`
}

// The handler given by a caller: the function's summary says so.
func scanOut(in io.Reader, out io.Writer) error {
	return scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: out}})
}

func scanStdout(in io.Reader) error {
	return scanOut(in, os.Stdout) // want `^per-record write to os.Stdout via scanOut\(out\) -> scanlib.Scan\(cfg.Handler\) -> \(\*printer\).Event\(p.out\): fmt.Fprintln \(scanmain.go:21\)`
}

// A file created for the handler.
func scanFile(in io.Reader, name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: f}}) // want `^per-record write to f via scanlib.Scan\(cfg.Handler\) -> \(\*printer\).Event\(p.out\): fmt.Fprintln \(scanmain.go:21\) .*-files$`
}

// Silent: standard error (directly and through the package variable), a
// bytes.Buffer, a bufio.Writer flushed after the scan, and a handler
// called once.
func scanQuiet(in io.Reader) error {
	scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: os.Stderr}})
	scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: colorlib.Error}})
	var b bytes.Buffer
	scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: &b}})
	w := bufio.NewWriter(os.Stdout)
	scanlib.Scan(scanlib.Config{In: in, Handler: &printer{out: w}})
	w.Flush()
	return scanlib.Once(&printer{out: colorlib.Output})
}

var _ = []any{scanColor, scanStdout, scanFile, scanQuiet}
