//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestLocaleAgainstGNUHead runs both programs under locale settings that
// decide between 'C' and ‘UTF-8’ quoting, with names and numbers that
// quote differently in the two.
func TestLocaleAgainstGNUHead(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	locpath := t.TempDir()
	haveLocale := copyLocale(t, "/usr/lib/locale/C.utf8", filepath.Join(locpath, "xx_YY.UTF-8"))
	settings := [][]string{
		{"LANG=C"},
		{"LANG=POSIX"},
		{"LANG=C.UTF-8"},
		{"LANG=C.utf8"},
		{"LANG=C.UTF8"},
		{"LANG=c.utf-8"},     // no such locale: names are case-sensitive
		{"LANG=C.utf8@euro"}, // found without the modifier
		{"LANG=en_US.UTF-8"}, // installed or not, both programs must agree
		{"LANG=german"},      // an alias
		{"LANG=xx_YY.UTF-8"}, // not installed
		{"LC_ALL=C", "LANG=C.UTF-8"},
		{"LC_ALL=C.UTF-8", "LANG=C"},
		{"LC_ALL=", "LANG=C.UTF-8"},
		{"LANG=C", "LC_CTYPE=C.UTF-8"},
		{"LANG=C", "LC_MESSAGES=C.UTF-8"},
		{"LANG=C.UTF-8", "LC_MESSAGES=C"},
		{"LANG=C.UTF-8", "LC_TIME=xx_XX.UTF-8"}, // one category fails: all stay C
		{"LC_ALL=C.UTF-8", "LC_TIME=xx_XX.UTF-8"},
		{"LANG=/usr/lib/locale/C.utf8"},
	}
	if haveLocale {
		settings = append(settings,
			[]string{"LANG=xx_YY.UTF-8", "LOCPATH=" + locpath},
			[]string{"LANG=xx_YY.utf8", "LOCPATH=" + locpath}, // the directory's spelling is not normalized
			[]string{"LANG=xx_YY.UTF-8@mod", "LOCPATH=" + locpath},
			[]string{"LANG=C.UTF-8", "LC_NUMERIC=xx_YY.UTF-8", "LOCPATH=" + locpath},
			[]string{"LANG=C.UTF-8", "LOCPATH=" + locpath}, // /usr/lib/locale is still searched
		)
	}
	for _, locale := range settings {
		for _, args := range []string{"-n abc", "-c é\x01’'x", "-n \xff\u0085\u00a0", "missing-é'\x7f three", "-n 1 tab\tname missing-’", "-x"} {
			t.Run(fmt.Sprintf("%s/%q", strings.Join(locale, ","), args), func(t *testing.T) {
				progs.compare(t, invocation{args: strings.Split(args, " "), dir: dir, locale: locale}, nil)
			})
		}
	}
}

// copyLocale copies a compiled locale directory, reporting whether it
// could; a test that needs it then skips the cases that use it.
func copyLocale(t *testing.T, from, to string) bool {
	t.Helper()
	if _, err := os.Stat(from); err != nil {
		t.Logf("no %s to copy (%v): skipping the LOCPATH cases", from, err)
		return false
	}
	if out, err := exec.Command("cp", "-r", from, to).CombinedOutput(); err != nil {
		t.Logf("cannot copy %s: %v\n%s: skipping the LOCPATH cases", from, err, out)
		return false
	}
	return true
}

// TestPrintableAgainstGNUHead quotes every Unicode character under
// LANG=C.UTF-8 with both programs. Characters that GNU head leaves as
// they are must be left so by getdelim too. The other way round the two
// agree up to U+07FF, where nothing was assigned after Unicode 11;
// beyond it getdelim also leaves alone the characters Unicode assigned
// after the C library's tables were made (see the package doc).
func TestPrintableAgainstGNUHead(t *testing.T) {
	progs := findPrograms(t)
	q := quoting{utf8: true}
	const chunk = 8000 // characters per argument: at most 4 bytes and a separator each, under Linux's 128 KiB
	newer := 0
	for start := rune(0x80); start <= unicode.MaxRune; start += chunk {
		var chars []string
		var arg strings.Builder
		for r := start; r < start+chunk && r <= unicode.MaxRune; r++ {
			if utf8.ValidRune(r) {
				chars = append(chars, string(r))
				arg.WriteString(string(r) + "x")
			}
		}
		var out strings.Builder
		inv := invocation{args: []string{"-n", arg.String()}, locale: []string{"LANG=C.UTF-8"}}
		_, stderr := inv.run(t, progs.head, "head", &out)
		quoted, ok := strings.CutPrefix(strings.TrimSuffix(stderr, "\n"), "head: invalid number of lines: ")
		if !ok || !strings.HasPrefix(quoted, "‘") {
			t.Skipf("head does not quote in UTF-8 under LANG=C.UTF-8 (no such locale?): %q", stderr[:min(len(stderr), 100)])
		}
		headParts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(quoted, "‘"), "’"), "x")
		ourParts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(q.quote(arg.String()), "‘"), "’"), "x")
		if len(headParts) != len(chars)+1 || len(ourParts) != len(chars)+1 {
			t.Fatalf("U+%04X...: %d characters, head quoted %d, getdelim %d", start, len(chars), len(headParts)-1, len(ourParts)-1)
		}
		for i, c := range chars {
			headEscapes, ours := strings.HasPrefix(headParts[i], `\`), ourParts[i]
			switch {
			case ours == headParts[i]:
			case !headEscapes:
				t.Errorf("%U: head leaves it as %q, getdelim quotes it %q", []rune(c)[0], headParts[i], ours)
			case []rune(c)[0] <= 0x7ff:
				t.Errorf("%U: head escapes it as %q, getdelim quotes it %q", []rune(c)[0], headParts[i], ours)
			default:
				newer++
			}
		}
	}
	t.Logf("%d characters escaped by head and left as they are by getdelim (Unicode %s here)", newer, unicode.Version)
}
