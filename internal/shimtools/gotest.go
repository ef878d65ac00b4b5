package shimtools

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Results maps a test ("package TestName", subtests included) or a
// package ("package") to its outcome: "pass", "fail" or "skip".
type Results map[string]string

// ParseTestJSON reads `go test -json` output and returns every test's and
// package's final outcome. A package that failed to build has outcome
// "fail". Lines that are not JSON (a tool's stray output) are skipped, as
// test2json's consumers do.
func ParseTestJSON(r io.Reader) (Results, error) {
	res := make(Results)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20) // one Output event holds one line of a test's output
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var ev struct{ Action, Package, Test string }
		if err := json.Unmarshal(line, &ev); err != nil {
			return nil, fmt.Errorf("go test -json: %v in %q", err, line)
		}
		switch ev.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		key := ev.Package
		if ev.Test != "" {
			key += " " + ev.Test
		}
		res[key] = ev.Action
	}
	return res, sc.Err()
}

// Count returns how many tests (not packages) had outcome.
func (r Results) Count(outcome string) int {
	n := 0
	for k, v := range r {
		if v == outcome && strings.Contains(k, " ") {
			n++
		}
	}
	return n
}

// Differences lists, one line each in sorted order, every test or package
// whose outcome under got differs from want, or that only one of them ran.
func Differences(want, got Results) []string {
	var diffs []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: %s, then not run", k, w))
		} else if g != w {
			diffs = append(diffs, fmt.Sprintf("%s: %s, then %s", k, w, g))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: not run, then %s", k, g))
		}
	}
	slices.Sort(diffs)
	return diffs
}
