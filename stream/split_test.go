package stream

import (
	"bufio"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// splitResult is one call of a split function.
type splitResult struct {
	Advance int
	Token   []byte
	Err     error
}

func callSplit(split SplitFunc, data []byte, atEOF bool) splitResult {
	adv, tok, err := split(data, atEOF)
	return splitResult{adv, tok, err}
}

// splitPairs pairs each split function with bufio's.
var splitPairs = []struct {
	name        string
	ours, bufio SplitFunc
}{
	{"ScanBytes", ScanBytes, bufio.ScanBytes},
	{"ScanRunes", ScanRunes, bufio.ScanRunes},
	{"ScanLines", ScanLines, bufio.ScanLines},
	{"ScanWords", ScanWords, bufio.ScanWords},
}

// compareSplits checks every split function against bufio's on data, at
// and before the end of input. Empty data before the end is left out: a
// Scanner never passes it, and bufio's ScanBytes and ScanRunes index past
// it.
func compareSplits(t *testing.T, data []byte) {
	t.Helper()
	for _, p := range splitPairs {
		for _, atEOF := range []bool{false, true} {
			if len(data) == 0 && !atEOF {
				continue
			}
			want := callSplit(p.bufio, data, atEOF)
			got := callSplit(p.ours, data, atEOF)
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("%s(%q, %v): -bufio +ours:\n%s", p.name, data, atEOF, diff)
			}
		}
	}
}

func TestSplitFuncsMatchBufio(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"newline only", "\n"},
		{"CR only", "\r"},
		{"CRLF", "\r\n"},
		{"CR CRLF", "\r\r\n"},
		{"line CRLF", "abc\r\ndef"},
		{"line CR at end", "abc\r"},
		{"CR inside line", "a\rb\n"},
		{"no newline", "abc"},
		{"two lines", "a\nb\n"},
		{"empty lines", "\n\n\n"},
		{"spaces only", " \t\n\v\f\r "},
		{"word between spaces", "  word  "},
		{"word at start", "word rest"},
		{"word cut", "  wor"},
		{"NEL and NBSP", "a\u0085b\u00a0c"},
		{"unicode spaces", "a\u1680b\u2000c\u200ad\u2028e\u2029f\u202fg\u205fh\u3000i"},
		{"not spaces", "a\u200bb\u180ec\ufeffd"},
		{"ASCII rune", "a"},
		{"two-byte rune", "é!"},
		{"three-byte rune", "€"},
		{"four-byte rune", "𝄞x"},
		{"cut rune", "\xe2\x82"},
		{"cut four-byte rune", "\xf0\x9d\x84"},
		{"bad continuation", "\xe2x"},
		{"lone continuation", "\x80abc"},
		{"overlong", "\xc0\xaf"},
		{"surrogate", "\xed\xa0\x80"},
		{"beyond U+10FFFF", "\xf4\x90\x80\x80"},
		{"0xff", "\xff\xfe"},
		{"real U+FFFD", "\uFFFD"},
		{"bad bytes between words", "a \xff b"},
		{"bad byte in line", "\xff\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { compareSplits(t, []byte(tt.data)) })
	}
}

// TestIsSpaceAllRunes checks isSpace against unicode.IsSpace, which
// bufio's ScanWords follows, on every rune and on values beyond them.
func TestIsSpaceAllRunes(t *testing.T) {
	for r := rune(-1); r <= utf8.MaxRune+1; r++ {
		if got, want := isSpace(r), unicode.IsSpace(r); got != want {
			t.Errorf("isSpace(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestScanWordsEverySpace separates two words by each space rune and
// checks the words come out as bufio's do.
func TestScanWordsEverySpace(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !unicode.IsSpace(r) {
			continue
		}
		compareSplits(t, []byte("ab"+string(r)+"cd"))
	}
}

func FuzzSplitFuncs(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", " x\u3000y ", "\xe2\x82", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareSplits(t, data) })
}
