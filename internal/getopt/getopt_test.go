package getopt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scanner is a head-like table: a short option with an argument, two
// without, long options with each kind of argument, two alike (quiet and
// silent, silence), and an extra that only an unambiguous prefix outside Longs
// reaches.
func scanner(inOrder bool) *Scanner {
	return &Scanner{
		Shorts: "n:qv",
		Longs: []Option{
			{"lines", RequiredArgument, "n"},
			{"quiet", NoArgument, "q"},
			{"silent", NoArgument, "q"},
			{"silence", NoArgument, "q"},
			{"verbose", NoArgument, "v"},
			{"version", NoArgument, ""}, // Key defaults to Name
		},
		Extras: []Option{
			{"loop", NoArgument, ""}, {"look", NoArgument, ""},
			{"stats", OptionalArgument, "stats"}, {"sweep", RequiredArgument, "sweep"},
		},
		InOrder: inOrder,
	}
}

func TestScan(t *testing.T) {
	type result struct {
		Events   []Event
		Operands []string
		Err      string
	}
	n := func(arg, name string) Event { return Event{Key: "n", Arg: arg, Name: name} }
	for _, tc := range []struct {
		args    string // split on spaces
		inOrder bool
		want    result
	}{
		{args: "", want: result{}},
		{args: "a -n 5 b", want: result{Events: []Event{n("5", "-n")}, Operands: []string{"a", "b"}}},
		{args: "a -n 5 b", inOrder: true, want: result{Operands: []string{"a", "-n", "5", "b"}}},
		{args: "-n5 -qv", want: result{Events: []Event{n("5", "-n"), {Key: "q", Name: "-q"}, {Key: "v", Name: "-v"}}}},
		{args: "-qn5", want: result{Events: []Event{{Key: "q", Name: "-q"}, n("5", "-n")}}},
		{args: "-qn 5", want: result{Events: []Event{{Key: "q", Name: "-q"}, n("5", "-n")}}},
		{args: "-n -5", want: result{Events: []Event{n("-5", "-n")}}},
		{args: "--lines=7 --lines 8 --li=9", want: result{Events: []Event{n("7", "--lines"), n("8", "--lines"), n("9", "--lines")}}},
		{args: "--lines=", want: result{Events: []Event{n("", "--lines")}}},
		{args: "-- -n 5", want: result{Operands: []string{"-n", "5"}}},
		{args: "- -q", want: result{Events: []Event{{Key: "q", Name: "-q"}}, Operands: []string{"-"}}},
		{args: "--q --sil", want: result{Events: []Event{{Key: "q", Name: "--quiet"}, {Key: "q", Name: "--silent"}}}},
		// silent and silence do the same, so "--sil" is not ambiguous;
		// verbose and version differ.
		{args: "--ver", want: result{Err: "option '--ver' is ambiguous; possibilities: '--verbose' '--version'"}},
		{args: "--verb", want: result{Events: []Event{{Key: "v", Name: "--verbose"}}}},
		{args: "--vers", want: result{Events: []Event{{Key: "version", Name: "--version"}}}},
		{args: "--l", want: result{Err: "option '--lines' requires an argument"}},
		{args: "--loop", want: result{Events: []Event{{Key: "loop", Name: "--loop"}}}},
		// Options without a Key differ by name.
		{args: "--lo", want: result{Err: "option '--lo' is ambiguous; possibilities: '--loop' '--look'"}},
		// Longs first: "--s" is --silent, whatever Extras hold.
		{args: "--s", want: result{Events: []Event{{Key: "q", Name: "--silent"}}}},
		{args: "--st", want: result{Events: []Event{{Key: "stats", Name: "--stats"}}}},
		{args: "--stats json", want: result{Events: []Event{{Key: "stats", Name: "--stats"}}, Operands: []string{"json"}}},
		{args: "--stats=json", want: result{Events: []Event{{Key: "stats", Name: "--stats", Arg: "json"}}}},
		{args: "--sw 1K", want: result{Events: []Event{{Key: "sweep", Name: "--sweep", Arg: "1K"}}}},
		{args: "--sweep", want: result{Err: "option '--sweep' requires an argument"}},
		{args: "--quiet=1", want: result{Err: "option '--quiet' doesn't allow an argument"}},
		{args: "-q --bogus=1 -v", want: result{Events: []Event{{Key: "q", Name: "-q"}}, Err: "unrecognized option '--bogus=1'"}},
		{args: "-qx", want: result{Events: []Event{{Key: "q", Name: "-q"}}, Err: "invalid option -- 'x'"}},
		{args: "-:", want: result{Err: "invalid option -- ':'"}},
		{args: "-n", want: result{Err: "option requires an argument -- 'n'"}},
	} {
		t.Run(tc.args, func(t *testing.T) {
			var args []string
			if tc.args != "" {
				args = strings.Split(tc.args, " ")
			}
			events, operands, err := scanner(tc.inOrder).Scan(args)
			got := result{Events: events, Operands: operands}
			if err != nil {
				if _, ok := err.(*UsageError); !ok {
					t.Errorf("error %T, want *UsageError", err)
				}
				got.Err = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Scan(%q) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
