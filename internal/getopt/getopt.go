// Package getopt scans a command line as glibc's getopt_long does, for the
// project's commands (getdelim, headbench), so that both take GNU-style
// options and report a bad one in glibc's words.
//
// Options and operands may be mixed (the operands keep their order), "--"
// ends the options, a long option may be abbreviated to any unambiguous
// prefix, a short option's argument may be attached ("-n5") or the next
// argument, and short options group ("-qn5"). With Scanner.InOrder set (as
// a command does when POSIXLY_CORRECT is in the environment) the first
// operand ends the options.
package getopt

import (
	"fmt"
	"strings"
)

// ArgKind says whether an option takes an argument.
type ArgKind int

const (
	// NoArgument: "--name" only; "--name=value" is an error.
	NoArgument ArgKind = iota
	// RequiredArgument: "--name=value" or "--name value"; a missing value
	// is an error.
	RequiredArgument
	// OptionalArgument: "--name" (Event.Arg is empty) or "--name=value";
	// as with glibc's optional_argument, the next argument is never taken.
	// Long options only.
	OptionalArgument
)

// Option is one entry of a long option table.
type Option struct {
	Name string  // without the leading "--"
	Arg  ArgKind // whether it takes an argument
	Key  string  // what the scanner reports, such as a short option; Name if empty
}

// key is what the scanner reports for o.
func (o Option) key() string {
	if o.Key == "" {
		return o.Name
	}
	return o.Key
}

// An Event is one option as the scanner found it, in command-line order.
type Event struct {
	Key  string // the short option ("n") or the Option's Key
	Arg  string // the option's argument, if it takes one
	Name string // the option as written ("-n", "--lines"), for messages about its argument
}

// A UsageError is a malformed command line, with glibc's message
// ("unrecognized option '--bogus'"). GNU tools print it after the program
// name, then "Try 'PROG --help' for more information.".
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Scanner is getopt_long over one command line.
type Scanner struct {
	// Shorts are the short options; a ':' after a letter says it takes
	// an argument.
	Shorts string
	// Longs are tried first. Extras are a command's own long options,
	// only looked at when no entry of Longs matches, so that every
	// abbreviation of Longs keeps the meaning it has in the tool whose
	// options they copy (GNU head for getdelim).
	Longs, Extras []Option
	// InOrder stops the options at the first operand (POSIXLY_CORRECT).
	InOrder bool
}

// Scan splits args (without the program name) into events and operands,
// stopping at the first malformed option, whose *UsageError it returns
// with the events before it: a command acts on each option as getopt
// returns it.
func (s *Scanner) Scan(args []string) (events []Event, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return events, append(operands, args[i+1:]...), nil
		case len(a) < 2 || a[0] != '-':
			if s.InOrder {
				return events, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
			continue
		}
		var found []Event
		if strings.HasPrefix(a, "--") {
			var ev Event
			if ev, i, err = s.long(args, i); err == nil {
				found = []Event{ev}
			}
		} else {
			found, i, err = s.short(args, i)
		}
		events = append(events, found...)
		if err != nil {
			return events, operands, err
		}
	}
	return events, operands, nil
}

// long scans the long option args[i] and returns the index of the last
// argument it used.
func (s *Scanner) long(args []string, i int) (Event, int, error) {
	body := args[i][2:]
	name, value, hasValue := strings.Cut(body, "=")
	opt, err := s.lookup(name, body)
	if err != nil {
		return Event{}, i, err
	}
	ev := Event{Key: opt.key(), Name: "--" + opt.Name}
	switch {
	case opt.Arg == NoArgument && hasValue:
		return ev, i, &UsageError{fmt.Sprintf("option '--%s' doesn't allow an argument", opt.Name)}
	case opt.Arg == NoArgument:
	case hasValue:
		ev.Arg = value
	case opt.Arg == OptionalArgument:
	case i+1 < len(args):
		i++
		ev.Arg = args[i]
	default:
		return ev, i, &UsageError{fmt.Sprintf("option '--%s' requires an argument", opt.Name)}
	}
	return ev, i, nil
}

// lookup finds the long option name abbreviates: an exact match, else the
// only prefix match, else several that all do the same. body is the whole
// argument after "--", as glibc quotes it.
func (s *Scanner) lookup(name, body string) (Option, error) {
	for _, table := range [][]Option{s.Longs, s.Extras} {
		var matches []Option
		for _, o := range table {
			if o.Name == name {
				return o, nil
			}
			if strings.HasPrefix(o.Name, name) {
				matches = append(matches, o)
			}
		}
		if len(matches) == 0 {
			continue
		}
		// glibc lists the first match and every match that differs from
		// it; matches that behave alike are not ambiguous.
		first := matches[0]
		listed := []string{"'--" + first.Name + "'"}
		for _, o := range matches[1:] {
			if o.Arg != first.Arg || o.key() != first.key() {
				listed = append(listed, "'--"+o.Name+"'")
			}
		}
		if len(listed) == 1 {
			return first, nil
		}
		return Option{}, &UsageError{fmt.Sprintf("option '--%s' is ambiguous; possibilities: %s",
			body, strings.Join(listed, " "))}
	}
	return Option{}, &UsageError{fmt.Sprintf("unrecognized option '--%s'", body)}
}

// short scans the group of short options args[i] and returns the index of
// the last argument it used.
func (s *Scanner) short(args []string, i int) ([]Event, int, error) {
	group := args[i][1:]
	var events []Event
	for j := 0; j < len(group); j++ {
		c := group[j]
		k := strings.IndexByte(s.Shorts, c)
		if c == ':' || k < 0 {
			return events, i, &UsageError{fmt.Sprintf("invalid option -- '%c'", c)}
		}
		ev := Event{Key: string(c), Name: "-" + string(c)}
		if k+1 < len(s.Shorts) && s.Shorts[k+1] == ':' {
			switch {
			case j+1 < len(group):
				ev.Arg = group[j+1:]
			case i+1 < len(args):
				i++
				ev.Arg = args[i]
			default:
				return events, i, &UsageError{fmt.Sprintf("option requires an argument -- '%c'", c)}
			}
			return append(events, ev), i, nil
		}
		events = append(events, ev)
	}
	return events, i, nil
}
