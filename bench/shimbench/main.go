// Command shimbench measures what `stdiobuf build` gives real third-party
// tools (internal/shimtools lists them): each is built with `go build` and
// with `stdiobuf build`, run over the seed-shaped input (internal/seedinput)
// on an XFS loop mount whose st_blksize is 131072 and on the file system of
// the work folder (ext4 on the project's machines), with its output to
// /dev/null and into a pipe. It prints, per tool, file system and output,
//
//	tool X: N reads -> M reads, T1 -> T2 (ratio)
//
// from medians of interleaved runs and read(2)/write(2) counts taken under
// strace, and writes a Markdown report with the machine, the call counts,
// where each tool's remaining time goes (strace -c) and how to reproduce.
//
// Usage, from the repository's root, as root (for the loop mount):
//
//	go run ./bench/shimbench [-runs 7] [-lines N] [-tools gojq,uniq] [-out FILE]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
	"github.com/stdiobuf/stdiobuf/internal/shimtools"
)

type options struct {
	runs     int
	lines    int
	tools    []shimtools.Tool
	out      string
	stdiobuf string
	noXFS    bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o, err := parseFlags(os.Args[1:])
	if err == nil {
		err = run(ctx, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shimbench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("shimbench", flag.ContinueOnError)
	var o options
	var tools string
	fs.IntVar(&o.runs, "runs", 7, "timed runs of each build, interleaved")
	fs.IntVar(&o.lines, "lines", seedinput.Lines, "lines of the seed-shaped input (a tool's LinesDiv divides it)")
	fs.StringVar(&tools, "tools", "", "comma-separated tools to run (default: all)")
	fs.StringVar(&o.out, "out", "", "the report (default: bench/results/DATE-shim.md)")
	fs.StringVar(&o.stdiobuf, "stdiobuf", "", "a stdiobuf binary to use (default: build ./cmd/stdiobuf)")
	fs.BoolVar(&o.noXFS, "no-xfs", false, "skip the XFS loop mount (it needs root)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.runs < 1 || o.lines < 10 {
		return o, fmt.Errorf("-runs must be at least 1 and -lines at least 10")
	}
	all := shimtools.Tools()
	if tools == "" {
		o.tools = all
	}
	for name := range strings.SplitSeq(tools, ",") {
		if name == "" {
			continue
		}
		i := slices.IndexFunc(all, func(t shimtools.Tool) bool { return t.Name == name })
		if i < 0 {
			return o, fmt.Errorf("no tool %q (have %s)", name, toolNames(all))
		}
		o.tools = append(o.tools, all[i])
	}
	if o.out == "" {
		o.out = filepath.Join("bench", "results", time.Now().UTC().Format("2006-01-02")+"-shim.md")
	}
	return o, nil
}

func toolNames(tools []shimtools.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// target is a file system holding the inputs.
type target struct {
	name    string // "xfs", "ext4", ...
	how     string // how it was made, for the report
	blksize int64  // st_blksize of the input there
	inputs  map[int]string
}

// output is where a run's standard output goes.
type output struct {
	name string
	open func() (io.Writer, func(), error)
}

// counter drains a pipe, counts its bytes and lines and checksums them.
type counter struct {
	bytes, lines int64
	crc          uint32
}

func (c *counter) Write(p []byte) (int, error) {
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p)
	c.bytes += int64(len(p))
	for _, b := range p {
		if b == '\n' {
			c.lines++
		}
	}
	return len(p), nil
}

// outputs are the places a run writes to.
func outputs() []output {
	return []output{
		{"/dev/null", func() (io.Writer, func(), error) {
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				return nil, nil, err
			}
			return f, func() { f.Close() }, nil
		}},
		// A writer that is not a file makes exec give the tool a pipe, which
		// the harness drains.
		{"pipe", func() (io.Writer, func(), error) { return new(counter), func() {}, nil }},
	}
}

// key names one configuration's measurements. Call counts are kept under
// output "pipe" only (see count).
type key struct {
	tool, target, output string
	build                shimtools.Build
}

type results struct {
	times    map[key][]shimtools.Timing
	calls    map[key]shimtools.Calls
	lines    map[key]int64 // output lines, from the pipe runs
	profiles map[key][]shimtools.Syscall
}

func run(ctx context.Context, o options) error {
	start := time.Now()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("strace"); err != nil {
		return errors.New("strace is not installed (apt-get install strace)")
	}
	work, err := os.MkdirTemp("", "shimbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	m := machineInfo()
	logf("load average at start: %s", m.loadStart)

	sb := o.stdiobuf
	if sb == "" {
		if sb, err = shimtools.BuildStdiobuf(ctx, goCmd, work); err != nil {
			return err
		}
	}
	m.stdiobuf = commandLine(sb, "version")
	ws := &shimtools.Workspace{Go: goCmd, Stdiobuf: sb, Dir: work}
	for _, t := range o.tools {
		for _, b := range shimtools.Builds() {
			logf("building %s with %s", t.Name, b)
			if _, err := ws.Build(ctx, t, b); err != nil {
				return err
			}
		}
	}

	targets, cleanup, err := makeTargets(ctx, o, work)
	if cleanup != nil {
		defer func() {
			if err := cleanup(); err != nil {
				logf("cleanup: %v", err)
			}
		}()
	}
	if err != nil {
		return err
	}
	res := &results{
		times:    map[key][]shimtools.Timing{},
		calls:    map[key]shimtools.Calls{},
		lines:    map[key]int64{},
		profiles: map[key][]shimtools.Syscall{},
	}
	if err := count(ctx, o, ws, targets, res); err != nil {
		return err
	}
	if err := measure(ctx, o, ws, targets, res); err != nil {
		return err
	}
	m.loadEnd = loadAverage()
	m.elapsed = time.Since(start).Round(time.Second)
	report := render(o, m, targets, res)
	fmt.Print(summary(o, targets, res))
	if w := busy(m); w != "" {
		fmt.Printf("warning: load average %s at the start, %s at the end: above the %d CPUs, so the times are noisy\n", m.loadStart, m.loadEnd, m.cpus)
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(o.out, []byte(report), 0o644); err != nil {
		return err
	}
	logf("wrote %s (%s in all)", o.out, m.elapsed)
	return nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// lineCounts are the input sizes the tools need, in lines.
func lineCounts(o options) []int {
	var counts []int
	for _, t := range o.tools {
		if n := o.lines / t.LinesDiv; !slices.Contains(counts, n) {
			counts = append(counts, n)
		}
	}
	return counts
}

// makeTargets makes the inputs on the XFS mount and in the work folder.
func makeTargets(ctx context.Context, o options, work string) ([]*target, func() error, error) {
	var total int64
	for _, n := range lineCounts(o) {
		total += seedinput.Size(n, seedinput.DefaultSeed)
	}
	var targets []*target
	var cleanup func() error
	if ok, why := shimtools.CanMountXFS(); o.noXFS || !ok {
		if !o.noXFS {
			why = "no XFS loop mount: " + why
		} else {
			why = "-no-xfs"
		}
		logf("%s: measuring on the work folder's file system only", why)
	} else {
		mnt, c, err := shimtools.MountXFS(ctx, work, max(700<<20, total+total/4+(400<<20)))
		if err != nil {
			return nil, nil, err
		}
		cleanup = c
		targets = append(targets, &target{name: "xfs", how: "XFS on a loop device, mount -o " + shimtools.XFSOptions, inputs: map[int]string{}})
		if err := fill(targets[0], mnt, lineCounts(o)); err != nil {
			return nil, cleanup, err
		}
	}
	local := filepath.Join(work, "local")
	if err := os.Mkdir(local, 0o755); err != nil {
		return nil, cleanup, err
	}
	name, _, err := shimtools.FSType(local)
	if err != nil {
		return nil, cleanup, err
	}
	tgt := &target{name: name, how: "the work folder " + local + " (" + os.TempDir() + ")", inputs: map[int]string{}}
	if err := fill(tgt, local, lineCounts(o)); err != nil {
		return nil, cleanup, err
	}
	return append(targets, tgt), cleanup, nil
}

// fill writes the seed-shaped input of each line count into dir and
// records the st_blksize there.
func fill(t *target, dir string, counts []int) error {
	for _, n := range counts {
		dst, _, err := seedinput.File(dir, n, seedinput.DefaultSeed)
		if err != nil {
			return err
		}
		t.inputs[n] = dst
		_, bs, err := shimtools.FSType(dst)
		if err != nil {
			return err
		}
		t.blksize = bs
	}
	logf("inputs on %s (st_blksize %d)", t.name, t.blksize)
	return nil
}

// runOf is the run of tool t over its input on tgt.
func runOf(ws *shimtools.Workspace, o options, t shimtools.Tool, b shimtools.Build, tgt *target) shimtools.Run {
	input := tgt.inputs[o.lines/t.LinesDiv]
	return shimtools.Run{Bin: ws.Binary(t, b), Args: t.Command(input), Input: input}
}

// count traces each tool's two builds once per file system, with output
// into the pipe (which also counts the output's lines), and profiles each
// build on the first target with output to /dev/null. Neither output
// changes a tool's reads, and its writes only through the buffer a
// bufio.Writer over it gets, which is st_blksize (4096) for both.
func count(ctx context.Context, o options, ws *shimtools.Workspace, targets []*target, res *results) error {
	for _, tgt := range targets {
		for _, t := range o.tools {
			var sums [2]counter // what each build wrote: they must agree
			for _, b := range shimtools.Builds() {
				logf("strace %s %s %s", t.Name, b, tgt.name)
				k := key{t.Name, tgt.name, "pipe", b}
				r := runOf(ws, o, t, b, tgt)
				c := new(counter)
				r.Stdout = c
				var err error
				if res.calls[k], err = shimtools.Trace(ctx, r, ws.Dir); err != nil {
					return err
				}
				res.lines[k] = c.lines
				sums[b] = *c
				if b == shimtools.Shim && sums[shimtools.Plain] != sums[shimtools.Shim] {
					return fmt.Errorf("%s on %s: go build wrote %+v, stdiobuf build %+v", t.Name, tgt.name, sums[shimtools.Plain], sums[shimtools.Shim])
				}
				if tgt != targets[0] {
					continue
				}
				null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				r.Stdout = null
				res.profiles[key{t.Name, tgt.name, "/dev/null", b}], err = shimtools.Profile(ctx, r, ws.Dir)
				null.Close()
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// measure times every configuration o.runs times after one untimed round
// that fills the page cache. A round runs every configuration once, and
// the two builds of a configuration back to back in alternating order, so
// that a change in the machine's load falls on both alike.
func measure(ctx context.Context, o options, ws *shimtools.Workspace, targets []*target, res *results) error {
	for round := 0; round <= o.runs; round++ {
		logf("round %d of %d%s (load %s)", round, o.runs, map[bool]string{true: ", warm-up"}[round == 0], loadAverage())
		for _, tgt := range targets {
			for _, t := range o.tools {
				for _, out := range outputs() {
					builds := shimtools.Builds()
					if round%2 == 1 {
						slices.Reverse(builds[:])
					}
					for _, b := range builds {
						r := runOf(ws, o, t, b, tgt)
						w, done, err := out.open()
						if err != nil {
							return err
						}
						r.Stdout = w
						tm, err := r.Time(ctx)
						done()
						if err != nil {
							return err
						}
						if round > 0 {
							k := key{t.Name, tgt.name, out.name, b}
							res.times[k] = append(res.times[k], tm)
						}
					}
				}
			}
		}
	}
	return nil
}
