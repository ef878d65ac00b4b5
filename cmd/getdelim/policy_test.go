//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPolicyErrors checks that a bad STDIOBUF_POLICY is reported once by
// package stream and the run goes on with the default policy, while a bad
// --policy is a usage error.
func TestPolicyErrors(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	const envWarning = `stream: invalid STDIOBUF_POLICY="garbage": `
	tests := []struct {
		args string
		env  []string
		want result
	}{
		{args: "-n 1 three", env: []string{"STDIOBUF_POLICY=garbage"}, want: result{Stdout: "1\n", Stderr: envWarning}},
		{args: "-n 1", env: []string{"STDIOBUF_POLICY=garbage"}, want: result{Stderr: envWarning}}, // stdin is /dev/null
		{args: "-q -n 2 three missing three", env: []string{"STDIOBUF_POLICY=garbage"}, want: result{Status: 1, Stdout: "1\n2\n1\n2\n",
			Stderr: envWarning + "getdelim: cannot open 'missing' for reading: No such file or directory\n"}},
		{args: "--policy bufsiz -n 1 three", env: []string{"STDIOBUF_POLICY=garbage"}, want: result{Stdout: "1\n"}},
		{args: "--policy garbage -n 1 three", want: result{Status: 1,
			Stderr: "getdelim: invalid buffer policy 'garbage' for --policy (" + policyForms + ")\nTry 'getdelim --help' for more information.\n"}},
		{args: "--policy=0", want: result{Status: 1,
			Stderr: "getdelim: invalid buffer policy '0' for --policy (" + policyForms + ")\nTry 'getdelim --help' for more information.\n"}},
		{args: "--policy=2G three", want: result{Status: 1,
			Stderr: "getdelim: invalid buffer policy '2G' for --policy (" + policyForms + ")\nTry 'getdelim --help' for more information.\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			var out strings.Builder
			inv := invocation{args: strings.Split(tt.args, " "), dir: dir, env: tt.env}
			status, stderr := inv.run(t, progs.getdelim, "getdelim", &out)
			got := result{Status: status, Stdout: out.String(), Stderr: stderr}
			// Of stream's warning, only the start is pinned: the rest is
			// the package's wording.
			if strings.HasPrefix(tt.want.Stderr, envWarning) {
				line, rest, _ := strings.Cut(got.Stderr, "\n")
				if strings.HasPrefix(line, envWarning) && !strings.Contains(rest, envWarning) {
					got.Stderr = envWarning + rest
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
