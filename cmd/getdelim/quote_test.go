package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The expected texts are what GNU head 9.1 prints under LC_ALL=C.
func TestQuoting(t *testing.T) {
	tests := []quotingCase{
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
	checkQuoting(t, quoting{}, tests)
}

// The expected texts are what GNU head 9.1 prints under LANG=C.UTF-8.
func TestQuotingUTF8(t *testing.T) {
	tests := []quotingCase{
		{in: "plain", quote: "‘plain’", always: "'plain'", ifNeed: "plain"},
		{in: "", quote: "‘’", always: "''", ifNeed: "''"},
		{in: "a'b", quote: "‘a'b’", always: `"a'b"`, ifNeed: `"a'b"`},
		{in: "é", quote: "‘é’", always: "'é'", ifNeed: "é"},
		{in: "é'", quote: "‘é'’", always: `"é'"`, ifNeed: `"é'"`},
		{in: "é#", quote: "‘é#’", always: "'é#'", ifNeed: "é#"},
		{in: "#é", quote: "‘#é’", always: "'#é'", ifNeed: "'#é'"},
		{in: "é\x01", quote: `‘é\001’`, always: `'é'$'\001'`, ifNeed: `'é'$'\001'`},
		// The closing mark is escaped, the opening one is not.
		{in: "’", quote: `‘\’’`, always: "'’'", ifNeed: "’"},
		{in: "‘", quote: "‘‘’", always: "'‘'", ifNeed: "‘"},
		// Invalid UTF-8, one byte at a time; a truncated character.
		{in: "\xff", quote: `‘\377’`, always: `''$'\377'`, ifNeed: `''$'\377'`},
		{in: "a\xe2\x80", quote: `‘a\342\200’`, always: `'a'$'\342\200'`, ifNeed: `'a'$'\342\200'`},
		{in: "\xed\xa0\x80", quote: `‘\355\240\200’`, always: `''$'\355\240\200'`, ifNeed: `''$'\355\240\200'`},
		// Unprintable characters, escaped byte by byte: NEL (Cc), U+2028
		// (Zl), U+0378 (unassigned), U+FFFE (a noncharacter).
		{in: "\u0085", quote: `‘\302\205’`, always: `''$'\302\205'`, ifNeed: `''$'\302\205'`},
		{in: "\u2028", quote: `‘\342\200\250’`, always: `''$'\342\200\250'`, ifNeed: `''$'\342\200\250'`},
		{in: "\u0378", quote: `‘\315\270’`, always: `''$'\315\270'`, ifNeed: `''$'\315\270'`},
		{in: "\ufffe", quote: `‘\357\277\276’`, always: `''$'\357\277\276'`, ifNeed: `''$'\357\277\276'`},
		// Printable to glibc though not to unicode.IsPrint: NBSP (Zs),
		// ZWSP and a tag (Cf), private use (Co), a combining mark.
		{in: "\u00a0\u200b\U000e0001\ue000\u0300", quote: "‘\u00a0\u200b\U000e0001\ue000\u0300’",
			always: "'\u00a0\u200b\U000e0001\ue000\u0300'", ifNeed: "\u00a0\u200b\U000e0001\ue000\u0300"},
		// The second pass of a name with an apostrophe after a final
		// escape, as in the C locale.
		{in: "é'\x7f", quote: `‘é'\177’`, always: `'''é'\'''$'\177'`, ifNeed: `'''é'\'''$'\177'`},
		{in: "é'\u0085é", quote: `‘é'\302\205é’`, always: `'é'\'''$'\302\205''é'`, ifNeed: `'é'\'''$'\302\205''é'`},
	}
	checkQuoting(t, quoting{utf8: true}, tests)
}

// quotingCase is a string and what each of the three styles makes of it.
type quotingCase struct {
	in                    string
	quote, always, ifNeed string
}

func checkQuoting(t *testing.T, q quoting, tests []quotingCase) {
	t.Helper()
	for _, tt := range tests {
		got := struct{ Quote, Always, IfNeeded string }{q.quote(tt.in), q.always(tt.in), q.ifNeeded(tt.in)}
		want := struct{ Quote, Always, IfNeeded string }{tt.quote, tt.always, tt.ifNeed}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("quoting %q (-want +got):\n%s", tt.in, diff)
		}
	}
}
