package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// GNU tools quote what they name in diagnostics with gnulib's quotearg
// module. Three styles matter, and each is written out here from its
// observable rules:
//
//   - quote, for option arguments: 'abc' (‘abc’ in a UTF-8 locale), with
//     C escapes inside;
//   - always (gnulib's quoteaf), for file names: always quoted, in a form
//     a POSIX shell reads back as the same bytes;
//   - ifNeeded (gnulib's quotef): the name bare when the shell would read
//     it unchanged, else always.
//
// The locale changes two things: quote's marks, and what counts as
// printable, which is left as it is where anything else is escaped. In
// the C locale that is the ASCII graphic characters and the space; in a
// UTF-8 locale also every character past ASCII that the C library calls
// printable.

// A quoting is the locale's part in quoting: the C locale's, or a UTF-8
// locale's. Any other locale quotes as the C locale does.
type quoting struct {
	utf8 bool
}

// cEscapes are the control characters with a one-letter C escape.
var cEscapes = map[byte]byte{'\a': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v'}

// printable reports whether c is printable in the C locale (isprint).
func printable(c byte) bool { return c >= 0x20 && c < 0x7f }

// printableRune reports whether glibc's UTF-8 locales call r printable
// (iswprint): every assigned character but the controls (Cc) and the
// line and paragraph separators (Zl, Zp). Go's unicode.IsPrint is
// narrower: it leaves out format characters and spaces other than U+0020.
func printableRune(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cf, unicode.Co)
}

// char returns the length of the character that starts at s[i] and
// whether it is printable. A byte that does not start a valid character
// is a character of its own, not printable.
func (q quoting) char(s string, i int) (size int, isPrint bool) {
	if c := s[i]; c < utf8.RuneSelf || !q.utf8 {
		return 1, printable(c)
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return 1, false
	}
	return size, printableRune(r)
}

// marks returns the marks quote puts around its argument.
func (q quoting) marks() (open, close string) {
	if q.utf8 {
		return "\u2018", "\u2019"
	}
	return "'", "'"
}

// appendOctal appends each byte of s as a backslash and three octal
// digits.
func appendOctal(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
	}
	return b
}

// quote quotes s as gnulib's quote() does, for option arguments in
// messages such as "invalid number of lines: 'abc'": C escapes for
// control characters, octal for other unprintable bytes, and a
// backslash before a backslash and before the closing mark.
func (q quoting) quote(s string) string {
	open, close := q.marks()
	b := make([]byte, 0, len(s)+len(open)+len(close))
	b = append(b, open...)
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], close) {
			b = append(b, '\\')
		}
		c := s[i]
		if e, ok := cEscapes[c]; ok {
			b = append(b, '\\', e)
			i++
			continue
		}
		if c == '\\' {
			b = append(b, '\\', '\\')
			i++
			continue
		}
		size, isPrint := q.char(s, i)
		if isPrint {
			b = append(b, s[i:i+size]...)
		} else {
			b = appendOctal(b, s[i:i+size])
		}
		i += size
	}
	return string(append(b, close...))
}

// shellSafe reports whether the character of the given size at s[i] is
// read by a shell as itself outside quotes, so that ifNeeded may leave it
// bare: a printable character past ASCII is.
func (q quoting) shellSafe(s string, i, size int, isPrint bool) bool {
	if size > 1 {
		return isPrint
	}
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

// ifNeeded is gnulib's quotef: s bare if every character is safe for
// the shell, else always(s).
func (q quoting) ifNeeded(s string) string {
	if s == "" {
		return q.always(s)
	}
	for i := 0; i < len(s); {
		size, isPrint := q.char(s, i)
		if !q.shellSafe(s, i, size, isPrint) {
			return q.always(s)
		}
		i += size
	}
	return s
}

// sameInDoubleQuotes reports whether the character at s[i] reads the
// same inside double quotes in C and in the shell and is plain enough for
// gnulib to prefer double quotes to an escaped apostrophe: "it's".
func (q quoting) sameInDoubleQuotes(s string, i, size int, isPrint bool) bool {
	if size == 1 {
		switch c := s[i]; c {
		case ' ', '\'', '@':
			return true
		case '#', '~':
			return i == 0
		case '{', '}':
			return len(s) == 1
		}
	}
	return q.shellSafe(s, i, size, isPrint)
}

// always is gnulib's quoteaf: s in single quotes, where an apostrophe
// closes them, comes escaped with a backslash and reopens them, and
// characters a shell cannot hold literally (control characters, bytes
// that are not printable characters) go in $'...' with C escapes. A name
// whose only awkward byte is an apostrophe is put in double quotes
// instead.
func (q quoting) always(s string) string {
	hasApostrophe := strings.IndexByte(s, '\'') >= 0
	if hasApostrophe && q.allSameInDoubleQuotes(s) {
		return `"` + s + `"`
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, '\'')
	// inDollar says the output is inside a $'...' run. gnulib writes a
	// name with an apostrophe in a second pass, which starts in the state
	// its first pass ended in: inside $'...' if the last character was
	// escaped. Its output for such names is reproduced, odd as it is.
	inDollar := hasApostrophe && q.endsEscaped(s)
	for i := 0; i < len(s); {
		c := s[i]
		size, isPrint := q.char(s, i)
		e, isEscape := cEscapes[c]
		if isEscape || !isPrint {
			if !inDollar {
				b = append(b, '\'', '$', '\'')
				inDollar = true
			}
			if isEscape {
				b = append(b, '\\', e)
			} else {
				b = appendOctal(b, s[i:i+size])
			}
			i += size
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
		b = append(b, s[i:i+size]...)
		i += size
	}
	return string(append(b, '\''))
}

// endsEscaped reports whether always escapes the last character of s.
func (q quoting) endsEscaped(s string) bool {
	escaped := false
	for i := 0; i < len(s); {
		size, isPrint := q.char(s, i)
		escaped = !isPrint
		i += size
	}
	return escaped
}

// allSameInDoubleQuotes reports whether every character of s reads the
// same inside double quotes in C and in the shell.
func (q quoting) allSameInDoubleQuotes(s string) bool {
	for i := 0; i < len(s); {
		size, isPrint := q.char(s, i)
		if !q.sameInDoubleQuotes(s, i, size, isPrint) {
			return false
		}
		i += size
	}
	return true
}
