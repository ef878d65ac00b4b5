package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The expected texts are what GNU head 9.1 prints under LC_ALL=C.
func TestQuoting(t *testing.T) {
	tests := []struct {
		in                    string
		quote, always, ifNeed string
	}{
		{in: "plain", quote: "'plain'", always: "'plain'", ifNeed: "plain"},
		{in: "", quote: "''", always: "''", ifNeed: "''"},
		{in: "a b", quote: "'a b'", always: "'a b'", ifNeed: "'a b'"},
		{in: "a'b", quote: `'a\'b'`, always: `"a'b"`, ifNeed: `"a'b"`},
		{in: "''", quote: `'\'\''`, always: `"''"`, ifNeed: `"''"`},
		{in: "it's a $x", quote: `'it\'s a $x'`, always: `'it'\''s a $x'`, ifNeed: `'it'\''s a $x'`},
		{in: "a\tb", quote: `'a\tb'`, always: `'a'$'\t''b'`, ifNeed: `'a'$'\t''b'`},
		{in: "a\nb\x01", quote: `'a\nb\001'`, always: `'a'$'\n''b'$'\001'`, ifNeed: `'a'$'\n''b'$'\001'`},
		{in: "\t", quote: `'\t'`, always: `''$'\t'`, ifNeed: `''$'\t'`},
		{in: "\xc3\xa9", quote: `'\303\251'`, always: `''$'\303\251'`, ifNeed: `''$'\303\251'`},
		{in: `a\b`, quote: `'a\\b'`, always: `'a\b'`, ifNeed: `'a\b'`},
		{in: `a"b`, quote: `'a"b'`, always: `'a"b'`, ifNeed: `'a"b'`},
		{in: "a?b", quote: "'a?b'", always: "'a?b'", ifNeed: "'a?b'"},
		// gnulib's second pass starts inside $'...' after a final escape.
		{in: "x'\x7f", quote: `'x\'\177'`, always: `'''x'\'''$'\177'`, ifNeed: `'''x'\'''$'\177'`},
		{in: "'\x7f", quote: `'\'\177'`, always: `''\'''$'\177'`, ifNeed: `''\'''$'\177'`},
		{in: "\x7f'", quote: `'\177\''`, always: `''$'\177'\'''`, ifNeed: `''$'\177'\'''`},
		{in: "a'\tb", quote: `'a\'\tb'`, always: `'a'\'''$'\t''b'`, ifNeed: `'a'\'''$'\t''b'`},
		{in: "dir/f-1.txt", quote: "'dir/f-1.txt'", always: "'dir/f-1.txt'", ifNeed: "dir/f-1.txt"},
		{in: "#a", quote: "'#a'", always: "'#a'", ifNeed: "'#a'"},
		{in: "a#", quote: "'a#'", always: "'a#'", ifNeed: "a#"},
		{in: "{", quote: "'{'", always: "'{'", ifNeed: "'{'"},
		{in: "{a}", quote: "'{a}'", always: "'{a}'", ifNeed: "{a}"},
		{in: "#'", quote: `'#\''`, always: `"#'"`, ifNeed: `"#'"`},
		{in: "a#'", quote: `'a#\''`, always: `'a#'\'''`, ifNeed: `'a#'\'''`},
	}
	for _, tt := range tests {
		got := struct{ Quote, Always, IfNeeded string }{quote(tt.in), quoteAlways(tt.in), quoteIfNeeded(tt.in)}
		want := struct{ Quote, Always, IfNeeded string }{tt.quote, tt.always, tt.ifNeed}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("quoting %q (-want +got):\n%s", tt.in, diff)
		}
	}
}
