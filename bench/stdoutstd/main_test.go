package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// events makes a `go test -json` stream from lines of
// "ACTION PACKAGE TEST OUTPUT" (TEST "-" for none, OUTPUT optional).
func events(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		f := strings.SplitN(l, " ", 4)
		test := f[2]
		if test == "-" {
			test = ""
		}
		out := ""
		if len(f) == 4 {
			out = f[3] + "\n"
		}
		b.WriteString(`{"Action":"` + f[0] + `","Package":"` + f[1] + `","Test":"` + test + `","Output":` + quote(out) + "}\n")
	}
	return b.String()
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }

func mustRead(t *testing.T, s string) *run {
	t.Helper()
	r, err := read(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCompare(t *testing.T) {
	plain := mustRead(t, events(
		"output p TestA took (0.01s) at 0xc000123456",
		"pass p TestA",
		"output p TestB same",
		"pass p TestB",
		"pass p TestC",
		"output p TestD key 0123456789abcdef0123",
		"pass p TestD",
		"fail p TestE",
		"pass p TestF/As(0xc000010000)",
		"pass p -",
		"pass q -",
	)+"go: some message that is not JSON\n")
	buffered := mustRead(t, events(
		"output p TestA took (0.73s) at 0xc000999999",
		"pass p TestA",
		"output p TestB other",
		"pass p TestB",
		"fail p TestC",
		"output p TestD key fedcba9876543210fedc",
		"pass p TestD",
		"pass p TestE",
		"pass p TestF/As(0xc000020000)",
		"fail p -",
	))
	if diff := cmp.Diff([]key{{"p", ""}, {"p", "TestC"}, {"q", ""}}, regressions(plain, buffered)); diff != "" {
		t.Errorf("regressions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]key{{"p", "TestB"}}, differing(plain, buffered)); diff != "" {
		t.Errorf("differing (-want +got):\n%s", diff)
	}
	var b strings.Builder
	report(&b, plain, buffered, "-files", false)
	for _, want := range []string{"| plain | 5 | 1 | 0 |", "| -files | 5 | 1 | 0 |", "Passed plainly, not under -files: 3", "- q (package): no result", "- p TestC: fail"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestReadFileRefusesNoResults: a log without a result (not -json
// output, or a run that built nothing) is an error naming the file.
func TestReadFileRefusesNoResults(t *testing.T) {
	name := filepath.Join(t.TempDir(), "plain.json")
	if err := os.WriteFile(name, []byte("FAIL\tp [build failed]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readFile(name)
	if err == nil || !strings.Contains(err.Error(), name+": no test results") {
		t.Errorf("err = %v, want one naming %s", err, name)
	}
}
