// Package scanlib reads records and hands each to a handler its caller
// implements, as gotestsum's testjson.ScanTestOutput does.
package scanlib

import (
	"bufio"
	"io"
)

// Handler is called for each record.
type Handler interface {
	Event(rec string) error
}

// Config is what Scan reads and whom it tells.
type Config struct {
	In      io.Reader
	Handler Handler
}

type noop struct{}

func (noop) Event(string) error { return nil }

// Scan calls the handler once per line read.
func Scan(cfg Config) error { // want Scan:`sink\(0.Handler method=Event call=false loop=true\)`
	if cfg.Handler == nil {
		cfg.Handler = noop{}
	}
	return read(cfg)
}

func read(cfg Config) error {
	sc := bufio.NewScanner(cfg.In)
	for sc.Scan() {
		if err := cfg.Handler.Event(sc.Text()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Once calls the handler once.
func Once(h Handler) error { // want Once:`sink\(0 method=Event call=false loop=false\)`
	return h.Event("done")
}
