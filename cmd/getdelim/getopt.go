package main

import (
	"fmt"
	"strings"
)

// This file scans a command line as glibc's getopt_long does: options and
// operands may be mixed (the operands keep their order), "--" ends the
// options, a long option may be abbreviated to any unambiguous prefix, a
// short option's argument may be attached ("-n5") or the next argument,
// and short options group ("-qn5"). With POSIXLY_CORRECT in the
// environment the first operand ends the options. Errors carry glibc's
// messages.

// argKind says whether an option takes an argument.
type argKind int

const (
	noArgument argKind = iota
	requiredArgument
)

// longOption is one entry of a long option table.
type longOption struct {
	name string
	arg  argKind
	key  string // what the scanner reports: the short option or the name
}

// An optionEvent is one option as the scanner found it, in command-line
// order.
type optionEvent struct {
	key  string // "n", "c", "q", ... or a long-only option's name
	arg  string // the option's argument, if it takes one
	name string // the option as written, for messages about its argument
}

// A usageError is a malformed command line. GNU tools print its message,
// then "Try 'PROG --help' for more information.", and exit with status 1.
type usageError struct {
	msg string
	// byGetopt says that glibc's getopt reports the error, which it does
	// under argv[0] as given, where the tool's own messages use the
	// program name (see programName).
	byGetopt bool
}

func (e *usageError) Error() string { return e.msg }

// getoptError returns the usageError getopt reports.
func getoptError(format string, args ...any) *usageError {
	return &usageError{msg: fmt.Sprintf(format, args...), byGetopt: true}
}

// optionScanner is getopt_long over one command line.
type optionScanner struct {
	shorts string // short options; a ':' after a letter: it takes an argument
	// longs are tried first. extras are this tool's own long options, only
	// looked at when no entry of longs matches, so that every abbreviation
	// GNU head accepts means here what it means there.
	longs, extras []longOption
	inOrder       bool // POSIXLY_CORRECT: stop at the first operand
}

// scan splits args (without the program name) into option events and
// operands, stopping at the first malformed option.
func (s *optionScanner) scan(args []string) (events []optionEvent, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return events, append(operands, args[i+1:]...), nil
		case len(a) < 2 || a[0] != '-':
			if s.inOrder {
				return events, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
			continue
		}
		var found []optionEvent
		if strings.HasPrefix(a, "--") {
			var ev optionEvent
			if ev, i, err = s.long(args, i); err == nil {
				found = []optionEvent{ev}
			}
		} else {
			found, i, err = s.short(args, i)
		}
		// Options before a malformed one still count: head acts on each
		// as getopt returns it.
		events = append(events, found...)
		if err != nil {
			return events, operands, err
		}
	}
	return events, operands, nil
}

// long scans the long option args[i] and returns the index of the last
// argument it used.
func (s *optionScanner) long(args []string, i int) (optionEvent, int, error) {
	body := args[i][2:]
	name, value, hasValue := strings.Cut(body, "=")
	opt, err := s.lookup(name, body)
	if err != nil {
		return optionEvent{}, i, err
	}
	ev := optionEvent{key: opt.key, name: "--" + opt.name}
	switch {
	case opt.arg == noArgument && hasValue:
		return ev, i, getoptError("option '--%s' doesn't allow an argument", opt.name)
	case opt.arg == noArgument:
	case hasValue:
		ev.arg = value
	case i+1 < len(args):
		i++
		ev.arg = args[i]
	default:
		return ev, i, getoptError("option '--%s' requires an argument", opt.name)
	}
	return ev, i, nil
}

// lookup finds the long option name abbreviates: an exact match, else the
// only prefix match, else several that all do the same. body is the whole
// argument after "--", as glibc quotes it.
func (s *optionScanner) lookup(name, body string) (longOption, error) {
	for _, table := range [][]longOption{s.longs, s.extras} {
		var matches []longOption
		for _, o := range table {
			if o.name == name {
				return o, nil
			}
			if strings.HasPrefix(o.name, name) {
				matches = append(matches, o)
			}
		}
		if len(matches) == 0 {
			continue
		}
		// glibc lists the first match and every match that differs from
		// it; matches that behave alike are not ambiguous.
		first := matches[0]
		listed := []string{"'--" + first.name + "'"}
		for _, o := range matches[1:] {
			if o.arg != first.arg || o.key != first.key {
				listed = append(listed, "'--"+o.name+"'")
			}
		}
		if len(listed) == 1 {
			return first, nil
		}
		return longOption{}, getoptError("option '--%s' is ambiguous; possibilities: %s",
			body, strings.Join(listed, " "))
	}
	return longOption{}, getoptError("unrecognized option '--%s'", body)
}

// short scans the group of short options args[i] and returns the index of
// the last argument it used.
func (s *optionScanner) short(args []string, i int) ([]optionEvent, int, error) {
	group := args[i][1:]
	var events []optionEvent
	for j := 0; j < len(group); j++ {
		c := group[j]
		k := strings.IndexByte(s.shorts, c)
		if c == ':' || k < 0 {
			return events, i, getoptError("invalid option -- '%c'", c)
		}
		ev := optionEvent{key: string(c), name: "-" + string(c)}
		if k+1 < len(s.shorts) && s.shorts[k+1] == ':' {
			switch {
			case j+1 < len(group):
				ev.arg = group[j+1:]
			case i+1 < len(args):
				i++
				ev.arg = args[i]
			default:
				return events, i, getoptError("option requires an argument -- '%c'", c)
			}
			return append(events, ev), i, nil
		}
		events = append(events, ev)
	}
	return events, i, nil
}
