package dispatch

import (
	"fmt"
	"io"
	"os"
	"strings"
)

type formatter interface {
	Format(ps []string)
}

type textFormatter struct {
	W io.Writer // want W:"holds os.Stdout"
}

func (o textFormatter) Format(ps []string) { // want Format:`sink\(0.W call=false loop=true\)`
	for _, p := range ps {
		fmt.Fprintln(o.W, p)
	}
}

type lineFormatter struct {
	W io.Writer // want W:"holds os.Stdout"
}

func (o *lineFormatter) Format(ps []string) { // want Format:`sink\(0.W call=false loop=false\)`
	fmt.Fprintln(o.W, strings.Join(ps, " "))
}

type nullFormatter struct{}

func (nullFormatter) Format([]string) {}

// A writer in a field of a composite literal, used through the interface
// the literal is assigned to: the method's loop writes to the file.
func format(name string, ps []string) {
	var f formatter
	switch name {
	case "text":
		f = textFormatter{W: os.Stdout}
	case "line":
		f = &lineFormatter{W: os.Stdout}
	default:
		f = nullFormatter{}
	}
	f.Format(ps) // want `^per-record write to os.Stdout via \(textFormatter\).Format\(o.W\): fmt.Fprintln \(iface.go:20\) .*-stdout$`
	for _, p := range ps {
		f.Format([]string{p}) // want `^per-record write to os.Stdout via \(\*lineFormatter\).Format\(o.W\): fmt.Fprintln \(iface.go:29\) makes one system call per record \(as do fmt.Fprintln \(iface.go:20\)\); .*-stdout$`
	}
}

// The same types over standard error, over a buffer and over nothing
// known: silent.
func formatQuiet(ps []string, w io.Writer) {
	var sb strings.Builder
	fs := []formatter{textFormatter{W: os.Stderr}, &lineFormatter{W: &sb}, textFormatter{W: w}}
	for _, f := range fs {
		f.Format(ps)
	}
	var f formatter = textFormatter{W: os.Stderr}
	f.Format(ps)
	f = textFormatter{W: &sb}
	for _, p := range ps {
		f.Format([]string{p})
	}
}

// A renderer that keeps the writer it is given, and a table that calls
// it per row through the interface.
type renderer interface {
	Row(w io.Writer, cells []string)
}

type plain struct{}

func (plain) Row(w io.Writer, cells []string) { // want Row:`sink\(1 call=false loop=false\)`
	fmt.Fprintln(w, strings.Join(cells, "|"))
}

type table struct {
	out io.Writer
	r   renderer
}

func (t *table) render(rows [][]string) {
	for _, row := range rows {
		t.r.Row(t.out, row)
	}
}

func renderAll(rows [][]string) {
	t := &table{out: os.Stdout, r: plain{}}
	t.render(rows) // want `^per-record write to os.Stdout via \(\*table\).render\(t.out\) -> \(plain\).Row\(w\): fmt.Fprintln \(iface.go:79\) .*-stdout$`
}
