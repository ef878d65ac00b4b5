package events

import (
	"fmt"
	"io"
	"os"
)

var _ = []any{columns}

type logger struct{ w io.Writer }

func (l *logger) Debugf(format string, args ...any) { fmt.Fprintf(l.w, format, args...) } // want Debugf:`sink\(0.w call=false loop=false\)`

func (l *logger) Infof(format string, args ...any) { fmt.Fprintf(l.w, format, args...) } // want Infof:`sink\(0.w call=false loop=false\)`

var std = &logger{w: os.Stdout}

// A renderer's debug line per column, off unless the user asks for it:
// not reported. Its line per column at the info level is.
func columns(cols []string) {
	for _, c := range cols {
		std.Debugf("column %s\n", c)
		separator(c)
		std.Infof("column %s\n", c) // want `^per-record write to os.Stdout via \(\*logger\).Infof`
	}
}

// A helper that logs at the debug level, called per column: not
// reported either.
func separator(c string) string {
	std.Debugf("separator for %s\n", c)
	return "---"
}
