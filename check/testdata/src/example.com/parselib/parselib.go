// Package parselib parses records and hands each to a callback passed
// among its variadic options, as ojg's ParseReader does.
package parselib

import (
	"bufio"
	"io"
)

// Parser calls its callback per record.
type Parser struct {
	cb func(any)
}

// ParseReader parses r, calling the func value among args per record.
func (p *Parser) ParseReader(r io.Reader, args ...any) error { // want ParseReader:`sink\(0.cb call=true loop=true\)`
	for _, a := range args {
		switch ta := a.(type) {
		case func(any) bool:
			p.cb = func(x any) { _ = ta(x) }
		case func(any):
			p.cb = ta
		}
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.cb(sc.Text())
	}
	return sc.Err()
}

// Count returns the number of its options: it calls none.
func Count(args ...any) int { return len(args) }
