// Package parsemain passes parselib a callback among its variadic
// options; the callback writes through jsonw or senw, whose writes are
// at the same line of files of the same name.
package parsemain

import (
	"bytes"
	"example.com/jsonw"
	"example.com/parselib"
	"example.com/senw"
	"fmt"
	"os"
)

func writeJSON(v any) bool {
	jsonw.Write(os.Stdout, v)
	return true
}

func writeSEN(v any) bool {
	senw.Write(os.Stdout, v)
	return true
}

func run(p *parselib.Parser, sen bool) error {
	fn := writeJSON
	if sen {
		fn = writeSEN
	}
	return p.ParseReader(os.Stdin, fn) // want `^per-record write to os.Stdout via \(\*parselib.Parser\).ParseReader\(args\) -> writeJSON\(\) -> jsonw.Write\(w\): fmt.Fprintln \(writer.go:11\) makes one system call per record \(as do fmt.Fprintln \(writer.go:11\)\); .*-stdout$`
}

// Silent: a callback that writes to standard error or a buffer, and
// options given to a function that calls none.
func quiet(p *parselib.Parser) error {
	var b bytes.Buffer
	p.ParseReader(os.Stdin, func(v any) bool {
		fmt.Fprintln(os.Stderr, v)
		return true
	})
	p.ParseReader(os.Stdin, func(v any) bool {
		fmt.Fprintln(&b, v)
		return true
	})
	parselib.Count(writeJSON, writeSEN)
	return nil
}

var _ = []any{run, quiet}
