package main

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// A numberError is a count that GNU head rejects. Its text is head's:
//
//	invalid number of lines: 'abc'
//	invalid number of bytes: '16E': Value too large for defined data type
type numberError struct {
	what     string // "lines" or "bytes"
	text     string // the argument as head quotes it
	overflow bool   // a well-formed number too large for 64 bits
	q        quoting
}

func (e *numberError) Error() string {
	msg := fmt.Sprintf("invalid number of %s: %s", e.what, e.q.quote(e.text))
	if e.overflow {
		msg += ": Value too large for defined data type"
	}
	return msg
}

// unitName names what a count counts, for numberError.
func unitName(lines bool) string {
	if lines {
		return "lines"
	}
	return "bytes"
}

// multipliers are the suffixes head accepts after a count (gnulib's
// xstrtoumax with the suffixes "bkKmMGTPEZY0"): the power of 1000 or 1024
// each stands for. 'b' is 512 bytes and takes no second suffix.
var multipliers = map[byte]int{
	'k': 1, 'K': 1, 'm': 2, 'M': 2, 'G': 3, 'T': 4, 'P': 5, 'E': 6, 'Z': 7, 'Y': 8,
}

// isCSpace reports whether c is a space in the C locale (isspace).
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// parseCount reads a count as GNU head 9.1 does: leading white space, an
// optional '+', decimal digits, and an optional multiplier suffix: b (512),
// k K (1024), m M, G, T, P, E, Z, Y (powers of 1024), each of the latter
// optionally followed by B or D (powers of 1000 instead) or iB (1024). A
// suffix alone counts one unit ("K" is 1024). A negative sign, any other
// suffix or trailing byte is invalid; a value past 2^64-1 is an overflow.
// q quotes s in the error.
func parseCount(s string, lines bool, q quoting) (uint64, error) {
	invalid := &numberError{what: unitName(lines), text: s, q: q}
	rest := strings.TrimLeftFunc(s, func(r rune) bool { return r < 0x80 && isCSpace(byte(r)) })
	if strings.HasPrefix(rest, "-") {
		return 0, invalid
	}
	digits := strings.TrimPrefix(rest, "+")
	n, end, overflow := leadingDecimal(digits)
	if end == 0 {
		// No digits: a valid suffix at the very start means one unit.
		if s == "" || !validSuffixStart(s[0]) {
			return 0, invalid
		}
		n, rest = 1, s
	} else {
		rest = digits[end:]
	}
	if rest != "" {
		scaled, size, scaleOverflow, ok := applySuffix(n, rest)
		if !ok || size != len(rest) {
			return 0, invalid
		}
		n, overflow = scaled, overflow || scaleOverflow
	}
	if overflow {
		invalid.overflow = true
		return 0, invalid
	}
	return n, nil
}

// validSuffixStart reports whether c may begin a suffix.
func validSuffixStart(c byte) bool {
	_, ok := multipliers[c]
	return ok || c == 'b'
}

// leadingDecimal parses the decimal digits at the start of s. It returns
// their value (saturated at 2^64-1 on overflow) and how many there were.
func leadingDecimal(s string) (n uint64, end int, overflow bool) {
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		d := uint64(s[end] - '0')
		hi, lo := bits.Mul64(n, 10)
		sum, carry := bits.Add64(lo, d, 0)
		if hi != 0 || carry != 0 {
			overflow = true
		}
		if overflow {
			n = math.MaxUint64
		} else {
			n = sum
		}
		end++
	}
	return n, end, overflow
}

// applySuffix multiplies n by the suffix at the start of s and returns the
// result (saturated on overflow) and the suffix's length; ok is false if
// s does not start with a suffix.
func applySuffix(n uint64, s string) (scaled uint64, size int, overflow, ok bool) {
	if s[0] == 'b' {
		scaled, overflow = mulSaturate(n, 512)
		return scaled, 1, overflow, true
	}
	power, ok := multipliers[s[0]]
	if !ok {
		return n, 0, false, false
	}
	base, size := uint64(1024), 1
	switch {
	case strings.HasPrefix(s[1:], "iB"):
		size = 3
	case strings.HasPrefix(s[1:], "B"), strings.HasPrefix(s[1:], "D"):
		base, size = 1000, 2
	}
	scaled = n
	for range power {
		var o bool
		scaled, o = mulSaturate(scaled, base)
		overflow = overflow || o
	}
	return scaled, size, overflow, true
}

// mulSaturate returns a*b, or 2^64-1 and true if that overflows.
func mulSaturate(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64, true
	}
	return lo, false
}

// toInt64 clamps a count to the int64 that stream's copy methods take; a
// count that large is as good as infinite.
func toInt64(n uint64) int64 {
	return int64(min(n, math.MaxInt64))
}
