package dispatch

import (
	"bufio"
	"io"
	"os"
)

type eventFormatter interface {
	Format(ev string) error
}

type eventFormatterFunc func(ev string) error

func (f eventFormatterFunc) Format(ev string) error { return f(ev) } // want Format:`sink\(0 call=true loop=false\)`

func jsonFormat(out io.Writer) eventFormatter {
	buf := bufio.NewWriter(out)
	return eventFormatterFunc(func(ev string) error {
		buf.WriteString(ev)
		return buf.Flush()
	})
}

func newFormatter(out io.Writer, name string) eventFormatter {
	switch name {
	case "json":
		return jsonFormat(out)
	}
	return nil
}

// A bufio.Writer made by a constructor and flushed by the func value it
// returns, called per record directly and through an interface.
func emitAll(evs []string) {
	f := jsonFormat(os.Stdout)
	for _, ev := range evs {
		f.Format(ev) // want `^per-record Flush of a buffer over os.Stdout via \(eventFormatterFunc\).Format\(f\) -> jsonFormat\(out\): bufio.Writer.Flush \(flushes.go:21\) writes once per record, which no stdiobuf build flag changes; flush once after the loop$`
	}
	g := newFormatter(os.Stdout, "json")
	for _, ev := range evs {
		g.Format(ev) // want `^per-record Flush of a buffer over os.Stdout via \(eventFormatterFunc\).Format\(f\) -> newFormatter\(out\) -> jsonFormat\(out\): bufio.Writer.Flush`
	}
}
