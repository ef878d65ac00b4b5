package stream

import (
	"bytes"
	"unicode/utf8"
)

// The split functions below are bufio's, token for token: the same
// advance, token and error for every input and atEOF, which
// TestSplitFuncsMatchBufio checks on the edge cases and FuzzSplitFuncs on
// anything. They are this package's own, not calls into bufio, because
// cmd/stdiobuf compiles the package as the standard library's bufio,
// which cannot import itself. The one difference: given empty data with
// atEOF false, which a Scanner never passes, these ask for more data,
// where bufio's ScanBytes and ScanRunes index past the end.

// ScanBytes is a split function for a Scanner that returns each byte as a
// token.
func ScanBytes(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if len(data) == 0 {
		return 0, nil, nil // need more, or the end
	}
	return 1, data[:1], nil
}

// replacementChar is the encoding of utf8.RuneError, the token ScanRunes
// returns for each byte that does not start a valid encoding.
const replacementChar = string(utf8.RuneError)

// ScanRunes is a split function for a Scanner that returns each
// UTF-8-encoded rune as a token. The sequence of runes returned is
// equivalent to that from a range loop over the input as a string: an
// erroneous encoding yields U+FFFD, "\xef\xbf\xbd", and advances by one
// byte, so there is no way to tell a real U+FFFD from a bad byte. An
// incomplete encoding at the end of the data is waited on until atEOF.
func ScanRunes(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if len(data) == 0 {
		return 0, nil, nil
	}
	if c := data[0]; c < utf8.RuneSelf {
		return 1, data[:1], nil
	}
	if _, n := utf8.DecodeRune(data); n > 1 {
		return n, data[:n], nil
	}
	// A one-byte decode of a non-ASCII byte is RuneError: either the
	// encoding is cut short by the end of data, which more data may
	// complete, or it is bad.
	if !atEOF && !utf8.FullRune(data) {
		return 0, nil, nil
	}
	return 1, []byte(replacementChar), nil
}

// ScanLines is a split function for a Scanner that returns each line of
// text, stripped of any trailing end-of-line marker: one optional
// carriage return followed by one mandatory newline ("\r?\n"). The last
// non-empty line of input is returned even if it has no newline, and an
// empty final line is not returned.
func ScanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, trimCR(data[:i]), nil
	}
	if atEOF && len(data) > 0 {
		return len(data), trimCR(data), nil
	}
	return 0, nil, nil
}

// trimCR drops one carriage return from the end of line.
func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// ScanWords is a split function for a Scanner that returns each
// space-separated word of text, with surrounding spaces deleted. It never
// returns an empty string. Space is as unicode.IsSpace defines it.
func ScanWords(data []byte, atEOF bool) (advance int, token []byte, err error) {
	// Skip the spaces before the word; they are consumed even when the
	// word itself is still incomplete.
	start := 0
	for start < len(data) {
		r, n := utf8.DecodeRune(data[start:])
		if !isSpace(r) {
			break
		}
		start += n
	}
	for i := start; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if isSpace(r) {
			return i + n, data[start:i], nil
		}
		i += n
	}
	if atEOF && len(data) > start {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// isSpace reports whether r is a space as unicode.IsSpace has it (White
// Space in Unicode's PropList, Latin-1 and beyond), without the unicode
// package's tables.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0,
		0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
