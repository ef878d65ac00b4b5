package main

import "strings"

// GNU tools quote what they name in diagnostics with gnulib's quotearg
// module. In the C locale (the only one this tool speaks) three styles
// matter, and each is written out here from its observable rules:
//
//   - quote, for option arguments: 'abc', with C escapes inside;
//   - quoteAlways (gnulib's quoteaf), for file names: always quoted, in a
//     form a POSIX shell reads back as the same bytes;
//   - quoteIfNeeded (gnulib's quotef): the name bare when the shell would
//     read it unchanged, else quoteAlways.

// cEscapes are the control characters with a one-letter C escape.
var cEscapes = map[byte]byte{'\a': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v'}

// printable reports whether c is printable in the C locale (isprint).
func printable(c byte) bool { return c >= 0x20 && c < 0x7f }

// appendOctal appends c as a backslash and three octal digits.
func appendOctal(b []byte, c byte) []byte {
	return append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
}

// quote quotes s as gnulib's quote() does in the C locale, for option
// arguments in messages such as "invalid number of lines: 'abc'".
func quote(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch e, ok := cEscapes[c]; {
		case ok:
			b = append(b, '\\', e)
		case c == '\\' || c == '\'':
			b = append(b, '\\', c)
		case !printable(c):
			b = appendOctal(b, c)
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '\''))
}

// shellSafe reports whether byte i of s is read by a shell as itself
// outside quotes, so that quoteIfNeeded may leave it bare.
func shellSafe(s string, i int) bool {
	c := s[i]
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case strings.IndexByte("%+,-./:@]_", c) >= 0:
		return true
	case c == '#' || c == '~':
		return i > 0 // a comment or a home directory only at the start
	case c == '{' || c == '}':
		return len(s) > 1 // a lone brace is a reserved word
	}
	return false
}

// quoteIfNeeded is gnulib's quotef: s bare if every byte is safe for the
// shell, else quoteAlways(s).
func quoteIfNeeded(s string) string {
	for i := range len(s) {
		if !shellSafe(s, i) {
			return quoteAlways(s)
		}
	}
	if s == "" {
		return quoteAlways(s)
	}
	return s
}

// sameInDoubleQuotes reports whether byte i of s reads the same inside
// double quotes in C and in the shell and is plain enough for gnulib to
// prefer double quotes to an escaped apostrophe: "it's".
func sameInDoubleQuotes(s string, i int) bool {
	switch c := s[i]; c {
	case ' ', '\'', '@':
		return true
	case '#', '~':
		return i == 0
	case '{', '}':
		return len(s) == 1
	}
	return shellSafe(s, i)
}

// quoteAlways is gnulib's quoteaf: s in single quotes, where an
// apostrophe closes them, comes escaped with a backslash and reopens them,
// and bytes a shell cannot hold literally (control characters, bytes past
// ASCII) go in $'...' with C escapes. A name whose only awkward byte is an
// apostrophe is put in double quotes instead.
func quoteAlways(s string) string {
	if strings.IndexByte(s, '\'') >= 0 && allSameInDoubleQuotes(s) {
		return `"` + s + `"`
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, '\'')
	// inDollar says the output is inside a $'...' run. gnulib writes a
	// name with an apostrophe in a second pass, which starts in the state
	// its first pass ended in: inside $'...' if the last byte was escaped.
	// Its output for such names is reproduced, odd as it is.
	inDollar := strings.IndexByte(s, '\'') >= 0 && !printable(s[len(s)-1])
	for i := 0; i < len(s); i++ {
		c := s[i]
		e, isEscape := cEscapes[c]
		if isEscape || !printable(c) {
			if !inDollar {
				b = append(b, '\'', '$', '\'')
				inDollar = true
			}
			if isEscape {
				b = append(b, '\\', e)
			} else {
				b = appendOctal(b, c)
			}
			continue
		}
		if c == '\'' {
			// Close the quotes (of either kind), an escaped quote, reopen.
			b = append(b, '\'', '\\', '\'')
			inDollar = false
		} else if inDollar {
			b = append(b, '\'', '\'')
			inDollar = false
		}
		b = append(b, c)
	}
	return string(append(b, '\''))
}

// allSameInDoubleQuotes reports whether every byte of s reads the same
// inside double quotes in C and in the shell.
func allSameInDoubleQuotes(s string) bool {
	for i := range len(s) {
		if !sameInDoubleQuotes(s, i) {
			return false
		}
	}
	return true
}
