//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests of gnu_test.go, seek_test.go and errors_gnu_test.go run GNU
// head and a freshly built getdelim on the same inputs and compare what
// they print and how they exit. head's messages start with "head:" and
// getdelim's with "getdelim:"; otherwise they must be the same bytes.
// They are skipped where GNU head is not installed.

// programs are the two commands under comparison.
type programs struct {
	getdelim, head string
}

// findPrograms builds getdelim into a temporary directory and finds GNU
// head, skipping the test if there is none.
func findPrograms(t *testing.T) programs {
	t.Helper()
	head, err := exec.LookPath("head")
	if err != nil {
		t.Skipf("GNU head is not installed: %v", err)
	}
	if v, err := exec.Command(head, "--version").Output(); err != nil || !bytes.Contains(v, []byte("GNU coreutils")) {
		t.Skipf("%s is not GNU head (--version: %q, %v)", head, v, err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("cannot build getdelim: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "getdelim")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return programs{getdelim: bin, head: head}
}

// result is what one run did, in a form cmp.Diff shows well: a large
// output is summarised by its size and digest.
type result struct {
	Status int    // exit status; 128+N for a death by signal N, as a shell shows it
	Stdout string // the bytes, or a summary if they are many
	Stderr string // with head's name replaced by getdelim's
}

// invocation is one run of a program.
type invocation struct {
	args  []string
	dir   string   // working directory, where the fixtures are
	stdin string   // a fixture to read as standard input; "": /dev/null
	pipe  bool     // give stdin through a pipe rather than as the file
	env   []string // added to a clean C-locale environment
	// locale replaces LC_ALL=C, the locale of that environment, if set.
	locale []string
	asUID  int // if > 0, run under this user and group ID
}

// run runs the program at path as argv[0] name with inv, and waits.
func (inv invocation) run(t *testing.T, path, name string, stdout io.Writer) (status int, stderr string) {
	t.Helper()
	cmd := exec.Command(path, inv.args...)
	cmd.Args[0] = name
	cmd.Dir = inv.dir
	if inv.stdin != "" {
		f := open(t, inv.dir, inv.stdin)
		cmd.Stdin = f
		if inv.pipe {
			cmd.Stdin = struct{ io.Reader }{f} // not an *os.File: exec copies it through a pipe
		}
	}
	locale := []string{"LC_ALL=C"}
	if inv.locale != nil {
		locale = inv.locale
	}
	cmd.Env = append(append(locale, "PATH="+os.Getenv("PATH")), inv.env...)
	cmd.Stdout = stdout
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	if inv.asUID > 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(inv.asUID), Gid: uint32(inv.asUID)}}
	}
	err := cmd.Run()
	return exitStatus(t, cmd, err), errBuf.String()
}

// exitStatus is the status a shell would report for a finished command.
func exitStatus(t *testing.T, cmd *exec.Cmd, err error) int {
	t.Helper()
	if cmd.ProcessState == nil {
		t.Fatalf("%s did not run: %v", cmd.Path, err)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// both runs inv with head and with getdelim (getdelim with extra options
// first) and returns their results, head's messages renamed.
func (p programs) both(t *testing.T, inv invocation, extra []string) (head, getdelim result) {
	t.Helper()
	run := func(path, name string, args []string) result {
		var out bytes.Buffer
		inv := inv
		inv.args = args
		status, stderr := inv.run(t, path, name, &out)
		return result{Status: status, Stdout: summarize(out.Bytes()), Stderr: stderr}
	}
	head = run(p.head, "head", inv.args)
	head.Stderr = renameHead(head.Stderr)
	getdelim = run(p.getdelim, "getdelim", withOptions(inv.args, extra))
	return head, getdelim
}

// compare runs inv under both programs and reports any difference.
func (p programs) compare(t *testing.T, inv invocation, extra []string) {
	t.Helper()
	head, own := p.both(t, inv, extra)
	if diff := cmp.Diff(head, own); diff != "" {
		t.Errorf("GNU head (-) and getdelim %q (+) differ:\n%s", extra, diff)
	}
}

// withOptions puts extra options in front of args, or after the first
// argument if that is an obsolete count, which must stay first.
func withOptions(args, extra []string) []string {
	var out []string
	if len(args) > 0 && isObsoleteCount(args[0]) {
		out, args = append(out, args[0]), args[1:]
	}
	out = append(out, extra...)
	return append(out, args...)
}

var headPrefix = regexp.MustCompile(`(?m)^head: `)

// renameHead puts getdelim's name where head's messages have head's.
func renameHead(s string) string {
	s = headPrefix.ReplaceAllString(s, "getdelim: ")
	return strings.ReplaceAll(s, "Try 'head --help'", "Try 'getdelim --help'")
}

// summarize returns b as a string if it is short, else its size and
// SHA-256, so that a mismatch of megabytes prints as two lines.
func summarize(b []byte) string {
	if len(b) <= 512 {
		return string(b)
	}
	return fmt.Sprintf("%d bytes, sha256 %x", len(b), sha256.Sum256(b))
}

// fixtures writes the test inputs into a new directory and returns it.
// Besides the files below it holds "dir", a directory.
func fixtures(t *testing.T) (dir string, files map[string][]byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	binary := make([]byte, 300<<10)
	for i := range binary {
		binary[i] = byte(r.Uint32())
	}
	var lines bytes.Buffer
	for i := range 40000 {
		fmt.Fprintf(&lines, "line %d %s\n", i, strings.Repeat("=", i%13))
	}
	huge := bytes.Repeat([]byte("x"), 3<<20)
	huge = append(huge, "\nshort\n"...)
	huge = append(huge, bytes.Repeat([]byte("y"), 3<<20)...)
	files = map[string][]byte{
		"empty":     nil,
		"three":     []byte("1\n2\n3\n"),
		"nofinal":   []byte("a\nb\nc"),
		"crlf":      []byte("x\r\ny\r\n\r\nz"),
		"nul":       []byte("a\x00b\x00\nc\x00\n\x00\x00d"),
		"binary":    binary,
		"lines":     lines.Bytes(),
		"huge-line": huge,
		"it's":      []byte("quoted\n"),
		"tab\tname": []byte("tabbed\n"),
	}
	dir = t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, files
}

// open opens a fixture for use as standard input.
func open(t *testing.T, dir, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
