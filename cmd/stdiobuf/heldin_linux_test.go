package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
	"golang.org/x/sys/unix"
)

// heldin holds the held-in program built plainly and with stdiobuf.
var heldin struct {
	once        sync.Once
	plain, shim string
	err         error
}

// buildHeldin builds testdata/heldin with go build and with stdiobuf
// build, once, and returns the two binaries.
func buildHeldin(t *testing.T) (plain, shim string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a program with the overlay; -short skips it")
	}
	if stdiobufBin == "" {
		t.Skip("cmd/stdiobuf did not build")
	}
	heldin.once.Do(func() {
		dir := filepath.Join(testDir, "heldin")
		heldin.plain, heldin.shim = filepath.Join(dir, "plain"), filepath.Join(dir, "shim")
		if out, err := exec.Command("go", "build", "-o", heldin.plain, "./testdata/heldin").CombinedOutput(); err != nil {
			heldin.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		cmd := exec.Command(stdiobufBin, "build", "-o", heldin.shim, "./testdata/heldin")
		cmd.Env = append(os.Environ(), testCacheEnv()...)
		if out, err := cmd.CombinedOutput(); err != nil {
			heldin.err = fmt.Errorf("stdiobuf build: %v\n%s", err, out)
		}
	})
	if heldin.err != nil {
		t.Fatal(heldin.err)
	}
	return heldin.plain, heldin.shim
}

// traceCalls runs cmd under strace and returns the calls of the system
// call named call it made on descriptor fd. Standard output is a pipe
// unless cmd sets it.
func traceCalls(t *testing.T, cmd *exec.Cmd, call string, fd int) int {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace to count system calls")
	}
	trace := filepath.Join(t.TempDir(), "trace")
	cmd.Args = append([]string{strace, "-f", "-qq", "-e", "trace=" + call, "-o", trace}, cmd.Args...)
	cmd.Path = strace
	var stderr, stdout bytes.Buffer
	cmd.Stderr = &stderr
	if cmd.Stdout == nil {
		cmd.Stdout = &stdout
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, stderr.Bytes())
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	return len(regexp.MustCompile(fmt.Sprintf(`(?m)\b%s\(%d,`, call, fd)).FindAll(b, -1))
}

// stdbuf returns args run under coreutils stdbuf with opts, or skips.
func stdbuf(t *testing.T, opts string, args ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("stdbuf"); err != nil {
		t.Skip("needs coreutils stdbuf")
	}
	if opts == "" {
		return args
	}
	return append([]string{"stdbuf", opts}, args...)
}

// TestHeldInStdbuf runs the held-in program under stdbuf into a pipe:
// built with stdiobuf its bufio streams on descriptors 0 and 1 follow
// stdbuf as package stream does; built plainly they are bufio's.
func TestHeldInStdbuf(t *testing.T) {
	plain, shim := buildHeldin(t)
	const lines = 50
	input := strings.Repeat("0123456789\n", 20)
	tests := []struct {
		name      string
		opts      string // stdbuf's option
		args      []string
		call      string // the system call counted
		fd        int
		plain, sh func(n int) bool
		want      string
	}{
		{"-oL writes a line at a time", "-oL", []string{"lines", fmt.Sprint(lines)}, "write", 1,
			func(n int) bool { return n == 1 }, func(n int) bool { return n == lines }, "plain 1, stdiobuf one per line"},
		{"-o0 writes each Write", "-o0", []string{"lines", fmt.Sprint(lines)}, "write", 1,
			func(n int) bool { return n == 1 }, func(n int) bool { return n == lines }, "plain 1, stdiobuf one per WriteString"},
		{"no stdbuf: fully buffered pipe", "", []string{"lines", fmt.Sprint(lines)}, "write", 1,
			func(n int) bool { return n == 1 }, func(n int) bool { return n == 1 }, "1 for both"},
		{"-i0 reads a byte at a time", "-i0", []string{"copy"}, "read", 0,
			func(n int) bool { return n <= 3 }, func(n int) bool { return n >= len(input) }, "plain a few, stdiobuf one per byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			count := func(bin string) int {
				cmd := exec.Command(bin)
				cmd.Args = stdbuf(t, tt.opts, append([]string{bin}, tt.args...)...)
				if cmd.Args[0] != bin {
					cmd.Path, _ = exec.LookPath(cmd.Args[0])
				}
				cmd.Stdin = strings.NewReader(input)
				return traceCalls(t, cmd, tt.call, tt.fd)
			}
			p, s := count(plain), count(shim)
			if !tt.plain(p) || !tt.sh(s) {
				t.Errorf("%s calls on fd %d: plain %d, stdiobuf %d; want %s", tt.call, tt.fd, p, s, tt.want)
			}
		})
	}
}

// TestHeldInSizes checks a Reader's Size over stdin: stdbuf's size under
// stdiobuf, bufio's 4096 plainly.
func TestHeldInSizes(t *testing.T) {
	plain, shim := buildHeldin(t)
	for _, tt := range []struct {
		opts        string
		plain, shim string
	}{
		{"-i65536", "4096", "65536"},
		{"-i8K", "4096", "8192"},
	} {
		for bin, want := range map[string]string{plain: tt.plain, shim: tt.shim} {
			args := stdbuf(t, tt.opts, bin, "size", "-")
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Stdin = strings.NewReader("x\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			if got := strings.TrimSpace(string(out)); got != want {
				t.Errorf("stdbuf %s %s size -: %s, want %s", tt.opts, filepath.Base(bin), got, want)
			}
		}
	}
}

// TestHeldInPty runs the held-in program with a pseudo-terminal as
// standard output: stdiobuf's build line-buffers it, the plain one writes
// once.
func TestHeldInPty(t *testing.T) {
	plain, shim := buildHeldin(t)
	master, slave := openPty(t)
	go func() { // drain, so writes never block on a full terminal
		buf := make([]byte, 4096)
		for {
			if _, err := master.Read(buf); err != nil {
				return
			}
		}
	}()
	const lines = 5
	for bin, want := range map[string]int{plain: 1, shim: lines} {
		cmd := exec.Command(bin, "lines", fmt.Sprint(lines))
		cmd.Stdout = slave
		if got := traceCalls(t, cmd, "write", 1); got != want {
			t.Errorf("%s on a pty: %d writes, want %d", filepath.Base(bin), got, want)
		}
	}
}

// openPty opens a pseudo-terminal pair, closed when the test ends.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("needs a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pty's slave: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// TestHeldInXFS reads a file on XFS mounted with largeio,allocsize=128k
// (st_blksize 131072): stdiobuf's build sizes its Reader from st_blksize,
// the plain one keeps bufio's 4096.
func TestHeldInXFS(t *testing.T) {
	plain, shim := buildHeldin(t)
	dir := fsmount.ForTest(t, "xfs128k")
	file := filepath.Join(dir, "input")
	if err := os.WriteFile(file, []byte(strings.Repeat("line\n", 100000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for bin, want := range map[string]string{plain: "4096", shim: "131072"} {
		out, err := exec.Command(bin, "size", file).Output()
		if err != nil {
			t.Fatalf("%s size: %v", bin, err)
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%s size on XFS: %s, want %s", filepath.Base(bin), got, want)
		}
	}
}
