// Package deadflag guards writes with booleans: those the program never
// sets to true guard dead code, as a false constant does; any other value
// keeps the write live.
package deadflag

import (
	"flag"
	"fmt"
	"os"
)

type differ struct {
	debug bool
	sub   *pathCalc
}

type pathCalc struct {
	debug bool
}

func newDiffer() *differ {
	return &differ{debug: false, sub: &pathCalc{}}
}

// SetDebug is exported but its type is not, and no interface has it:
// only the package calls it, and nothing does.
func (d *differ) SetDebug(debug bool) {
	d.debug = debug
	d.sub.SetDebug(debug)
}

func (p *pathCalc) SetDebug(debug bool) {
	p.debug = debug
}

func (d *differ) log(format string, args ...any) {
	if d.debug {
		fmt.Printf(format, args...)
	}
}

func (p *pathCalc) log(s string) {
	if p.debug && len(s) > 0 {
		fmt.Println(s)
	}
}

var trace = false

// A field and a variable never set to true: silent.
func diffAll(items []string) {
	d := newDiffer()
	for _, it := range items {
		d.log("item %s\n", it)
		d.sub.log(it)
		if trace {
			fmt.Println(it)
		}
	}
}

type verbose struct {
	on bool
}

func (v *verbose) log(s string) {
	if v.on {
		fmt.Println(s)
	}
}

var debugFlag = flag.Bool("debug", false, "")

var chatty bool

func init() {
	flag.BoolVar(&chatty, "chatty", false, "")
}

// Set from a flag, through a pointer, or to true: live.
func liveAll(items []string) {
	v := &verbose{on: *debugFlag}
	quiet := &verbose{}
	loud := false
	if len(os.Args) > 3 {
		loud = true
	}
	for _, it := range items {
		v.log(it)     // want `^per-record write to os.Stdout via \(\*verbose\).log\(\): fmt.Println \(deadflag.go:68\) .*-stdout$`
		quiet.log(it) // want `^per-record write to os.Stdout via \(\*verbose\).log\(\)`
		if chatty {
			fmt.Println(it) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
		if loud {
			fmt.Println(it) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
	}
}

// A setter called with a value not known: live.
type tracer struct {
	on bool
}

func (t *tracer) set(on bool) { t.on = on }

func (t *tracer) log(s string) {
	if t.on {
		fmt.Println(s)
	}
}

func traceAll(items []string, on bool) {
	t := &tracer{}
	t.set(on)
	for _, it := range items {
		t.log(it) // want `^per-record write to os.Stdout via \(\*tracer\).log\(\)`
	}
}
