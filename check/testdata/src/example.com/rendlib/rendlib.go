// Package rendlib renders tables as tablewriter does: a renderer keeps
// the writer its Start is given, and its Row writes to it; the table
// calls the renderer through an interface and renders its sections
// through a slice of method values.
package rendlib

import (
	"fmt"
	"io"
	"os"
)

// Renderer draws a table's rows.
type Renderer interface {
	Start(w io.Writer) error
	Row(cells []string)
	Debug(msg string)
}

// Plain is a renderer that writes each row to what Start gave it.
type Plain struct {
	w   io.Writer
	log *Logger
}

func (p *Plain) Start(w io.Writer) error { // want Start:`store\(0.w <- 1\)`
	p.w = w
	return nil
}

func (p *Plain) Row(cells []string) { // want Row:`sink\(0.w call=false loop=false\)`
	fmt.Fprintln(p.w, cells)
}

// Debug logs through the renderer's logger, whose output is off unless
// asked for: its Debugf is not followed, and Debug writes nothing a
// caller passes on.
func (p *Plain) Debug(msg string) { p.log.Debugf("%s", msg) }

// Logger writes its debug lines to out.
type Logger struct {
	out io.Writer
}

// NewLogger returns a logger over standard output.
func NewLogger() *Logger { return &Logger{out: os.Stdout} } // want NewLogger:`flow\(result 0.out <- -1 os.Stdout call=false\)`

// To sets the logger's output and returns the logger.
func (l *Logger) To(w io.Writer) *Logger { // want To:`flow\(result 0 <- 0  call=false\) flow\(result 0.out <- 1  call=false\) store\(0.out <- 1\)`
	l.out = w
	return l
}

func (l *Logger) Debugf(format string, args ...any) { // want Debugf:`sink\(0.out call=false loop=false\)`
	fmt.Fprintf(l.out, format, args...)
}

func (l *Logger) Printf(format string, args ...any) { // want Printf:`sink\(0.out call=false loop=false\)`
	fmt.Fprintf(l.out, format, args...)
}

// Table renders rows through its renderer.
type Table struct {
	writer   io.Writer
	renderer Renderer
	rows     [][]string
}

// NewTable returns a table over w, drawn by a Plain renderer.
func NewTable(w io.Writer) *Table { // want NewTable:`flow\(result 0.writer <- 0  call=false\) flow\(result 0.renderer.log.out <- -1 os.Stdout call=false\)`
	return &Table{writer: w, renderer: &Plain{log: NewLogger()}}
}

type renderContext struct {
	renderer Renderer
	rows     [][]string
}

// Render starts the renderer over the table's writer and renders each
// section, each a method value called in turn.
func (t *Table) Render() { // want Render:`sink\(0.writer call=false loop=true\)`
	ctx := &renderContext{renderer: t.renderer, rows: t.rows}
	ctx.renderer.Start(t.writer)
	sections := []func(*renderContext){t.renderHeader, t.renderRows}
	for _, fn := range sections {
		fn(ctx)
	}
}

func (t *Table) renderHeader(ctx *renderContext) {
	ctx.renderer.Debug("header")
}

func (t *Table) renderRows(ctx *renderContext) {
	for _, r := range ctx.rows {
		ctx.renderer.Row(r)
		ctx.renderer.Debug("row")
	}
}
