package stdiobuf

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// readmeMaxLines is how long README.md may grow: it is read in five
// minutes, and the details live in docs/.
const readmeMaxLines = 220

// docFiles returns the Markdown files whose links must resolve: the
// README, every page of docs/ and bench/README.md, as slash paths from
// the root of fsys.
func docFiles(fsys fs.FS) ([]string, error) {
	pages, err := fs.Glob(fsys, "docs/*.md")
	if err != nil {
		return nil, err
	}
	return append([]string{"README.md", "bench/README.md"}, pages...), nil
}

// mdLink is a link or image of a Markdown file: its target as written
// and the line it is on.
type mdLink struct {
	Line   int
	Target string
}

var (
	fencePattern    = regexp.MustCompile("^\\s*(```|~~~)")
	codeSpanPattern = regexp.MustCompile("`+[^`]*`+")
	linkPattern     = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	headingPattern  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// mdLines calls fn with each line of text outside fenced code blocks
// and its line number.
func mdLines(text string, fn func(n int, line string)) {
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		if fencePattern.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		fn(i+1, line)
	}
}

// mdLinks returns the targets of the inline links and images of text,
// leaving out code blocks and code spans.
func mdLinks(text string) []mdLink {
	var links []mdLink
	mdLines(text, func(n int, line string) {
		line = codeSpanPattern.ReplaceAllString(line, "``")
		for _, m := range linkPattern.FindAllStringSubmatch(line, -1) {
			links = append(links, mdLink{n, m[1]})
		}
	})
	return links
}

// headingAnchor returns the anchor GitHub gives a heading: lower case,
// punctuation other than '-' and '_' dropped, spaces turned into '-'.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdAnchors returns the anchors of text's headings; a repeated heading
// gets -1, -2, ... as on GitHub.
func mdAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	mdLines(text, func(_ int, line string) {
		m := headingPattern.FindStringSubmatch(line)
		if m == nil {
			return
		}
		a := headingAnchor(strings.ReplaceAll(m[1], "`", ""))
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	})
	return anchors
}

// linkProblems checks every relative link of the Markdown files named in
// files, read from fsys: its path must name a file or directory of fsys,
// and a #fragment must name a heading of the Markdown file it points
// into. It returns one line per broken link, "file:line: target: why".
func linkProblems(fsys fs.FS, files []string) []string {
	var problems []string
	for _, file := range files {
		text, err := fs.ReadFile(fsys, file)
		if err != nil {
			problems = append(problems, file+": "+err.Error())
			continue
		}
		for _, l := range mdLinks(string(text)) {
			if why := linkProblem(fsys, file, l.Target); why != "" {
				problems = append(problems, file+":"+strconv.Itoa(l.Line)+": "+l.Target+": "+why)
			}
		}
	}
	return problems
}

// linkProblem says what is wrong with the link target in file, or "".
func linkProblem(fsys fs.FS, file, target string) string {
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	p, frag, _ := strings.Cut(target, "#")
	dest := file
	if p != "" {
		if path.IsAbs(p) {
			return "an absolute path: links are relative to the file"
		}
		dest = path.Join(path.Dir(file), p)
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return "outside the repository"
		}
		if _, err := fs.Stat(fsys, dest); err != nil {
			return "no such file or directory " + dest
		}
	}
	if frag == "" {
		return ""
	}
	if !strings.HasSuffix(dest, ".md") {
		return "an anchor into " + dest + ", which is not Markdown"
	}
	text, err := fs.ReadFile(fsys, dest)
	if err != nil {
		return err.Error()
	}
	if !mdAnchors(string(text))[frag] {
		return "no heading of " + dest + " has the anchor #" + frag
	}
	return ""
}

func TestLinkProblems(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Title\n\n## The bound: `STDIOBUF_MAXDELAY`\n\n" +
			"[ok](docs/a.md) [dir](stream/) [img](bench/x.svg) [web](https://go.dev/x)\n" +
			"[self](#the-bound-stdiobuf_maxdelay) [there](docs/a.md#whats-new-here)\n" +
			"[gone](docs/b.md)\n" +
			"[bad anchor](docs/a.md#nowhere) [bad self](#title-2)\n" +
			"`[in code](nowhere.md)`\n" +
			"```\n[in a block](nowhere.md)\n```\n" +
			"[up](../outside.md) [not md](bench/x.svg#top)\n")},
		"docs/a.md":     {Data: []byte("# A\n\n## What's new, here\n\n[back](../README.md#title) [dup](#a-1)\n\n## A\n")},
		"stream/doc.go": {Data: []byte("package stream\n")},
		"bench/x.svg":   {Data: []byte("<svg/>")},
	}
	got := linkProblems(fsys, []string{"README.md", "docs/a.md"})
	want := []string{
		"README.md:7: docs/b.md: no such file or directory docs/b.md",
		"README.md:8: docs/a.md#nowhere: no heading of docs/a.md has the anchor #nowhere",
		"README.md:8: #title-2: no heading of README.md has the anchor #title-2",
		"README.md:13: ../outside.md: outside the repository",
		"README.md:13: bench/x.svg#top: an anchor into bench/x.svg, which is not Markdown",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("linkProblems (-want +got):\n%s", diff)
	}
}

func TestHeadingAnchor(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Without changing the code: stdiobuf build", "without-changing-the-code-stdiobuf-build"},
		{"The glibc proposal's benchmark", "the-glibc-proposals-benchmark"},
		{"The bound: STDIOBUF_MAXDELAY", "the-bound-stdiobuf_maxdelay"},
		{"Tests, CI and commits", "tests-ci-and-commits"},
		{"st_blksize below 4096", "st_blksize-below-4096"},
	} {
		if got := headingAnchor(tc.heading); got != tc.want {
			t.Errorf("headingAnchor(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

// TestREADMELinks: every relative link of the README, docs/ and
// bench/README.md names a file or directory of the repository, and every
// anchor a heading.
func TestREADMELinks(t *testing.T) {
	fsys := os.DirFS(".")
	files, err := docFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("docFiles = %q: want the README, bench/README.md and docs/", files)
	}
	for _, p := range linkProblems(fsys, files) {
		t.Error(p)
	}
}

// TestREADMEReachesDocs: every page of docs/ is one click from the README.
func TestREADMEReachesDocs(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, l := range mdLinks(string(readme)) {
		p, _, _ := strings.Cut(l.Target, "#")
		linked[path.Clean(p)] = true
	}
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if !linked[filepath.ToSlash(p)] {
			t.Errorf("README.md does not link to %s", p)
		}
	}
}

func TestREADMELength(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move details to docs/", n, readmeMaxLines)
	}
}

// shellCommands returns the commands of the sh code blocks of text, one
// per line or per && or ;, without comments, each split into words.
func shellCommands(text string) [][]string {
	var cmds [][]string
	inSh := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inSh = !inSh && strings.TrimPrefix(line, "```") == "sh"
			continue
		}
		if !inSh {
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		for _, c := range strings.FieldsFunc(line, func(r rune) bool { return r == ';' || r == '&' }) {
			if f := strings.Fields(c); len(f) > 0 {
				cmds = append(cmds, f)
			}
		}
	}
	return cmds
}

// TestREADMESetup: the README's set-up block holds the two commands, the
// packages they run are main packages of the module, and .ci/run runs
// the same test command.
func TestREADMESetup(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\n## Install and set up\n")
	if !ok {
		t.Fatal(`README.md has no section "Install and set up"`)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	got := shellCommands(section)
	want := [][]string{{"go", "test", "./..."}, {"go", "run", "./cmd/headbench"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the set-up commands of README.md (-want +got):\n%s", diff)
	}
	for _, dir := range []string{"cmd/headbench"} {
		if !isMainPackage(t, dir) {
			t.Errorf("README.md runs ./%s, which is not a main package", dir)
		}
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^go test (-count=1 )?\./\.\.\.$`).Match(ci) {
		t.Error(".ci/run does not run the README's test command, go test ./...")
	}
}

// isMainPackage reports whether dir holds Go files of package main.
func isMainPackage(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`(?m)^package main$`).Match(b) {
			return true
		}
	}
	return false
}

// TestREADMECommands: every go command of the README's sh blocks that
// names a package of this module names one that exists, and every
// stdiobuf command uses a subcommand and flags that stdiobuf's help, or
// go build's for the flags stdiobuf passes on, lists.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := shellCommands(string(readme))
	var stdiobufCmds [][]string
	for _, c := range cmds {
		switch c[0] {
		case "go":
			for _, arg := range c[1:] {
				if dir, ok := strings.CutPrefix(arg, "./"); ok && dir != "..." && !strings.HasSuffix(dir, "/...") {
					if _, err := os.Stat(dir); err != nil {
						t.Errorf("README.md: %q: %v", strings.Join(c, " "), err)
					}
				}
			}
		case "stdiobuf":
			stdiobufCmds = append(stdiobufCmds, c)
		}
	}
	if len(stdiobufCmds) == 0 {
		t.Fatal("README.md shows no stdiobuf command")
	}
	if testing.Short() {
		t.Skip("-short: not building cmd/stdiobuf")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build cmd/stdiobuf: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "stdiobuf")
	if out, err := exec.Command(goCmd, "build", "-o", bin, "./cmd/stdiobuf").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/stdiobuf: %v\n%s", err, out)
	}
	help, err := exec.Command(bin, "help").CombinedOutput()
	if err != nil {
		t.Fatalf("stdiobuf help: %v\n%s", err, help)
	}
	goHelp, err := exec.Command(goCmd, "help", "build").CombinedOutput()
	if err != nil {
		t.Fatalf("go help build: %v\n%s", err, goHelp)
	}
	usage := usageLines(string(help))
	for _, c := range stdiobufCmds {
		if len(c) < 2 || !slices.Contains(usage, c[1]) {
			t.Errorf("README.md: %q: stdiobuf help has no such command (it has %q)", strings.Join(c, " "), usage)
			continue
		}
		for _, arg := range c[2:] {
			if !strings.HasPrefix(arg, "-") {
				continue
			}
			name, _, _ := strings.Cut(arg, "=")
			if !helpHasFlag(string(help), name) && !helpHasFlag(string(goHelp), name) {
				t.Errorf("README.md: %q: neither stdiobuf help nor go help build has the flag %s", strings.Join(c, " "), name)
			}
		}
	}
}

// usageLines returns the commands that stdiobuf help's usage lines name.
func usageLines(help string) []string {
	var cmds []string
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && (f[0] == "usage:" && f[1] == "stdiobuf" || f[0] == "stdiobuf") {
			rest := f[1:]
			if f[0] == "usage:" {
				rest = f[2:]
			}
			if len(rest) > 0 {
				cmds = append(cmds, strings.Split(rest[0], "|")...)
			}
		}
	}
	return cmds
}

// helpHasFlag reports whether help text documents the flag name
// ("-stdout"): the flag as a word at the start of a line or in a usage.
func helpHasFlag(help, name string) bool {
	return regexp.MustCompile(`(?m)(^|[\s\[])` + regexp.QuoteMeta(name) + `(\s|\]|$)`).MatchString(help)
}
