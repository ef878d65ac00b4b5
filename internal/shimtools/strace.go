package shimtools

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Calls counts the read(2) calls a run made on its input and the write(2)
// calls it made on its standard output.
type Calls struct {
	Reads     int   // read(2) calls on the input file
	ReadBytes int64 // bytes they returned
	MaxAsk    int   // the largest count one of them asked for: the buffer's size
	Writes    int   // write(2) calls on descriptor 1
	// WriteBytes is the bytes those writes returned.
	WriteBytes int64
}

// callLine matches one read or write in `strace -y -s 0` output, which
// names each descriptor's file in angle brackets and prints no data:
// `read(3</mnt/input>, ""..., 131072) = 131072`. A call interrupted or
// failed (`= -1 EINTR ...`, `= ?`) does not match: it moved nothing.
var callLine = regexp.MustCompile(`^(read|write)\((\d+)(?:<(.*)>)?, "".*, (\d+)\) += (\d+)`)

// ParseTrace adds to c the calls in one strace output file (strace -ff
// writes one per thread) that read the file at input (an absolute path with
// no symbolic links, as strace prints it) or write descriptor 1.
func ParseTrace(r io.Reader, input string, c *Calls) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := callLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ask, err1 := strconv.Atoi(m[4])
		got, err2 := strconv.ParseInt(m[5], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("strace: bad numbers in %q", sc.Text())
		}
		switch {
		case m[1] == "read" && m[3] == input:
			c.Reads++
			c.ReadBytes += got
			c.MaxAsk = max(c.MaxAsk, ask)
		case m[1] == "write" && m[2] == "1":
			c.Writes++
			c.WriteBytes += got
		}
	}
	return sc.Err()
}

// Run is one run of a binary: its arguments, the file it reads (named in
// Args, or given as standard input when Stdin is set), and where its
// standard output goes (nil: /dev/null).
type Run struct {
	Bin    string
	Args   []string
	Input  string
	Stdin  bool
	Stdout io.Writer
}

// cmd returns r's command with its standard streams set, and a function
// that closes what it opened.
func (r Run) cmd(ctx context.Context, argv []string) (*exec.Cmd, func(), error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = RunEnv()
	closers := func() {}
	if r.Stdin {
		f, err := os.Open(r.Input)
		if err != nil {
			return nil, nil, err
		}
		cmd.Stdin = f
		closers = func() { f.Close() }
	}
	cmd.Stdout = r.Stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, closers, nil
}

// RunEnv is the environment a tool runs in: the caller's without the
// variables that change stream's decisions, so both builds run with the
// default policy and no stdbuf settings.
func RunEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "STDIOBUF_POLICY", "_STDBUF_I", "_STDBUF_O", "_STDBUF_E", "LD_PRELOAD":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// Trace runs r under `strace -ff -y` and counts its calls. tmp is a folder
// for strace's per-thread output files.
func Trace(ctx context.Context, r Run, tmp string) (Calls, error) {
	input, err := filepath.EvalSymlinks(r.Input)
	if err == nil {
		input, err = filepath.Abs(input)
	}
	if err != nil {
		return Calls{}, err
	}
	dir, err := os.MkdirTemp(tmp, "strace")
	if err != nil {
		return Calls{}, err
	}
	defer os.RemoveAll(dir)
	prefix := filepath.Join(dir, "t")
	argv := append([]string{"strace", "-ff", "-y", "-s", "0", "-qq", "-e", "signal=none",
		"-e", "trace=read,write", "-o", prefix, "--", r.Bin}, r.Args...)
	cmd, done, err := r.cmd(ctx, argv)
	if err != nil {
		return Calls{}, err
	}
	defer done()
	if err := cmd.Run(); err != nil {
		return Calls{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, lastLines(fmt.Sprint(cmd.Stderr), 5))
	}
	files, err := filepath.Glob(prefix + ".*")
	if err != nil || len(files) == 0 {
		return Calls{}, fmt.Errorf("strace left no output in %s", dir)
	}
	var c Calls
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return Calls{}, err
		}
		err = ParseTrace(f, input, &c)
		f.Close()
		if err != nil {
			return Calls{}, err
		}
	}
	return c, nil
}

// Syscall is one row of `strace -c`: a system call, its share of the
// time spent in system calls, that time and how many calls were made.
type Syscall struct {
	Name    string
	Percent float64
	Seconds float64
	Calls   int
}

// ParseSummary reads the table `strace -c` prints and returns its rows
// without the total row, whose columns differ between strace versions.
func ParseSummary(r io.Reader) ([]Syscall, error) {
	var rows []Syscall
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// % time, seconds, usecs/call, calls, [errors,] syscall.
		if len(f) < 5 || f[0] == "%" || strings.HasPrefix(f[0], "-") || f[len(f)-1] == "total" {
			continue
		}
		name := f[len(f)-1]
		pct, err1 := strconv.ParseFloat(f[0], 64)
		secs, err2 := strconv.ParseFloat(f[1], 64)
		n, err3 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("strace -c: cannot read %q", sc.Text())
		}
		rows = append(rows, Syscall{Name: name, Percent: pct, Seconds: secs, Calls: n})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("strace -c: no table")
	}
	return rows, nil
}

// Profile runs r under `strace -f -c` and returns its system-call summary.
func Profile(ctx context.Context, r Run, tmp string) ([]Syscall, error) {
	f, err := os.CreateTemp(tmp, "strace-c")
	if err != nil {
		return nil, err
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	argv := append([]string{"strace", "-f", "-c", "-o", name, "--", r.Bin}, r.Args...)
	cmd, done, err := r.cmd(ctx, argv)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, lastLines(fmt.Sprint(cmd.Stderr), 5))
	}
	f, err = os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSummary(f)
}
