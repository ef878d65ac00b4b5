package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stdiobuf/stdiobuf/stream"
)

func TestParseArgs(t *testing.T) {
	base := config{count: 10, lines: true, delim: '\n', files: []string{"-"}}
	with := func(edit func(*config)) config {
		c := base
		edit(&c)
		return c
	}
	tests := []struct {
		args    string // split on spaces
		env     map[string]string
		want    config
		act     action
		wantErr string
	}{
		{args: "", want: base},
		{args: "-n 5 f", want: with(func(c *config) { c.count, c.files = 5, []string{"f"} })},
		{args: "-n5", want: with(func(c *config) { c.count = 5 })},
		{args: "--lines=5", want: with(func(c *config) { c.count = 5 })},
		{args: "--lin=5", want: with(func(c *config) { c.count = 5 })},
		{args: "--lines 5", want: with(func(c *config) { c.count = 5 })},
		{args: "--lines -5", want: with(func(c *config) { c.count, c.elide = 5, true })},
		{args: "-n -5", want: with(func(c *config) { c.count, c.elide = 5, true })},
		{args: "-c 1K", want: with(func(c *config) { c.count, c.lines = 1024, false })},
		{args: "--bytes=-2b", want: with(func(c *config) { c.count, c.lines, c.elide = 1024, false, true })},
		{args: "-c 3 -n 4", want: with(func(c *config) { c.count = 4 })},
		{args: "-qn3 a b", want: with(func(c *config) { c.count, c.headers, c.files = 3, headersNever, []string{"a", "b"} })},
		{args: "-v -q", want: with(func(c *config) { c.headers = headersNever })},
		{args: "--silent --verbose", want: with(func(c *config) { c.headers = headersAlways })},
		{args: "--s", want: with(func(c *config) { c.headers = headersNever })},
		{args: "--st", want: with(func(c *config) { c.stats = true })},
		{args: "--stats=json", want: with(func(c *config) { c.stats, c.statsJSON = true, true })},
		{args: "--stats=json --st=text", want: with(func(c *config) { c.stats = true })},
		{args: "--stats json", want: with(func(c *config) { c.stats, c.files = true, []string{"json"} })},
		{args: "--lo --pol 64K", want: with(func(c *config) { c.loop, c.policy = true, 65536 })},
		{args: "--policy=bufsiz", want: with(func(c *config) { c.policy = stream.PolicyBufsiz })},
		{args: "-z", want: with(func(c *config) { c.delim = 0 })},
		{args: "--zero", want: with(func(c *config) { c.delim = 0 })},
		{args: "-d ,", want: with(func(c *config) { c.delim = ',' })},
		{args: `-d \t`, want: with(func(c *config) { c.delim = '\t' })},
		{args: `-d \0`, want: with(func(c *config) { c.delim = 0 })},
		{args: "---presume", want: with(func(c *config) { c.presumePipe = true })},
		{args: "a -n 2 b", want: with(func(c *config) { c.count, c.files = 2, []string{"a", "b"} })},
		{args: "a -- -n 2", want: with(func(c *config) { c.files = []string{"a", "-n", "2"} })},
		{args: "- -n1", want: with(func(c *config) { c.count, c.files = 1, []string{"-"} })},
		{args: "a -n1", env: map[string]string{"POSIXLY_CORRECT": ""}, want: with(func(c *config) { c.files = []string{"a", "-n1"} })},
		{args: "-5", want: with(func(c *config) { c.count = 5 })},
		{args: "-5c", want: with(func(c *config) { c.count, c.lines = 5, false })},
		{args: "-2k", want: with(func(c *config) { c.count, c.lines = 2048, false })},
		{args: "-2kl", want: with(func(c *config) { c.count = 2048 })},
		{args: "-2kc", want: with(func(c *config) { c.count, c.lines = 2, false })},
		{args: "-5qvz f", want: with(func(c *config) { c.count, c.headers, c.delim, c.files = 5, headersAlways, 0, []string{"f"} })},
		{args: "-3 -n 4", want: with(func(c *config) { c.count = 4 })},
		{args: "--help", act: actionHelp},
		{args: "--he --bogus", act: actionHelp},
		{args: "-5 --vers", act: actionVersion},
		{args: "-x", wantErr: "invalid option -- 'x'"},
		{args: "-vx", wantErr: "invalid option -- 'x'"},
		{args: "--bogus --help", wantErr: "unrecognized option '--bogus'"},
		{args: "--foo=bar", wantErr: "unrecognized option '--foo=bar'"},
		{args: "--v", wantErr: "option '--v' is ambiguous; possibilities: '--verbose' '--version'"},
		{args: "--ve=3", wantErr: "option '--ve=3' is ambiguous; possibilities: '--verbose' '--version'"},
		{args: "--=x", wantErr: "option '--=x' is ambiguous; possibilities: '--bytes' '--lines' '---presume-input-pipe' " +
			"'--quiet' '--silent' '--verbose' '--zero-terminated' '--help' '--version'"},
		{args: "--qu=1", wantErr: "option '--quiet' doesn't allow an argument"},
		{args: "--help=x", wantErr: "option '--help' doesn't allow an argument"},
		{args: "--stats=xml", wantErr: "invalid argument 'xml' for '--stats' (want text or json)"},
		{args: "--lin", wantErr: "option '--lines' requires an argument"},
		{args: "-qn", wantErr: "option requires an argument -- 'n'"},
		{args: "-n abc -x", wantErr: "invalid number of lines: 'abc'"},
		{args: "-x -n abc", wantErr: "invalid option -- 'x'"},
		{args: "-n --5", wantErr: "invalid number of lines: '-5'"},
		{args: "--bytes=", wantErr: "invalid number of bytes: ''"},
		{args: "-nq", wantErr: "invalid number of lines: 'q'"},
		{args: "-n 5 -3", wantErr: "invalid trailing option -- 3"},
		{args: "-q3", wantErr: "invalid trailing option -- 3"},
		{args: "-5x", wantErr: "invalid trailing option -- x"},
		{args: "-1k2", wantErr: "invalid trailing option -- 2"},
		{args: "-8Ek", wantErr: "invalid trailing option -- E"},
		{args: "-99999999999999999999", wantErr: "invalid number of lines: '99999999999999999999': Value too large for defined data type"},
		{args: "-99999999999999999999c", wantErr: "invalid number of bytes: '99999999999999999999': Value too large for defined data type"},
		{args: "-c -8E", wantErr: "invalid number of bytes: '9223372036854775808': Value too large for defined data type"},
		{args: "-c -8E -x", wantErr: "invalid option -- 'x'"},
		{args: "-c -8E -n 2", want: with(func(c *config) { c.count = 2 })},
		{args: "-d ab", wantErr: `invalid delimiter 'ab': a delimiter is one byte, a C escape such as \t or \0, or empty for NUL`},
		{args: "--policy nope", wantErr: "invalid buffer policy 'nope' for --policy (" + policyForms + ")"},
		{args: "--policy 2G", wantErr: "invalid buffer policy '2G' for --policy (" + policyForms + ")"},
	}
	for _, tt := range tests {
		args := strings.Fields(tt.args)
		lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
		got, act, err := parseArgs(args, lookup)
		if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
			t.Errorf("parseArgs(%q) error (-want +got):\n%s", tt.args, diff)
			continue
		}
		if err != nil {
			continue
		}
		if act != tt.act {
			t.Errorf("parseArgs(%q) action = %v, want %v", tt.args, act, tt.act)
		}
		if act != actionRun {
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(config{}, quoting{})); diff != "" {
			t.Errorf("parseArgs(%q) (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestParseArgsEmptyDelimiter(t *testing.T) {
	got, _, err := parseArgs([]string{"-d", ""}, func(string) (string, bool) { return "", false })
	if err != nil || got.delim != 0 {
		t.Errorf("parseArgs(-d '') = delim %q, %v; want NUL, no error", got.delim, err)
	}
}
