// Package rendmain renders rendlib's tables: a renderer's Start stores
// the writer, its Row writes to it per row, reached through a slice of
// method values.
package rendmain

import (
	"bytes"
	"example.com/rendlib"
	"os"
	"strings"
)

func render(rows [][]string) {
	t := rendlib.NewTable(os.Stdout)
	t.Render() // want `^per-record write to os.Stdout via \(\*rendlib.Table\).Render\(t.writer\) -> \(\*rendlib.Table\).renderRows\(ctx.renderer.w\) -> \(\*rendlib.Plain\).Row\(p.w\): fmt.Fprintln \(rendlib.go:32\) .*-stdout$`
}

// A logger set to a buffer by a setter that returns it writes there, not
// to the standard output its constructor gave it.
func logs(rows []string) string {
	var b bytes.Buffer
	l := rendlib.NewLogger().To(&b)
	for _, r := range rows {
		l.Printf("%s\n", r)
	}
	l2 := rendlib.NewLogger()
	for _, r := range rows {
		l2.Printf("%s\n", r) // want `^per-record write to os.Stdout via \(\*rendlib.Logger\).Printf\(l.out\)`
	}
	return b.String()
}

// Silent: tables over a buffer, a strings.Builder and standard error.
func quiet(rows [][]string) string {
	var b bytes.Buffer
	rendlib.NewTable(&b).Render()
	var sb strings.Builder
	rendlib.NewTable(&sb).Render()
	rendlib.NewTable(os.Stderr).Render()
	return b.String() + sb.String()
}

// Silent: a store in a function literal happens only where the literal
// is called, and this one never is.
func lazy(rows [][]string) func() {
	p := &rendlib.Plain{}
	later := func() { p.Start(os.Stdout) }
	for _, r := range rows {
		p.Row(r)
	}
	return later
}

var _ = []any{render, logs, quiet, lazy}
