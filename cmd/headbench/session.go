//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
	"golang.org/x/sys/unix"
)

// session is one headbench run: it owns what the run made and undoes it.
type session struct {
	o     *options
	out   io.Writer // standard output: the closing summary
	log   io.Writer // standard error
	prog  *progress
	cl    cleanups
	notes []string
	// failed is set when something the user asked for was not done.
	failed bool
	// afterSetup, if set, is called once the targets are ready, before any
	// figure runs; a test uses it to interrupt a run.
	afterSetup func()
}

// job is one figure on one target.
type job struct {
	fig *figure
	tgt *target
	// est is the last wall time seen, for the time-left estimate.
	est     time.Duration
	samples []sample
	runs    []runRecord
	counts  *counts
	checked string
}

// bench returns the job's benchmark name, as in
// BenchmarkHead/policy=blksize/fs=xfs128k.
func (j *job) bench() string { return "BenchmarkHead/" + j.fig.Key + "/fs=" + j.tgt.Name }

// note reports something left out or gone wrong and keeps it for the reports.
func (s *session) note(fail bool, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.prog.printf("%s", msg)
	s.notes = append(s.notes, msg)
	if fail {
		s.failed = true
	}
}

// main runs the benchmark and returns the exit status.
func (s *session) main(ctx context.Context) (code int) {
	started := time.Now()
	res := &results{Date: started, Machine: describeMachine(ctx), RunsPerFigure: s.o.runs,
		Spread: "min-max", Output: os.DevNull, OutputBlksize: blksizeOf(os.DevNull)}
	defer func() {
		if s.cl.run(s.log) > 0 {
			code = max(code, 1)
		}
		if code == 0 && s.failed {
			code = 1
		}
		if ctx.Err() != nil {
			s.prog.printf("%v: removed what the run had made", context.Cause(ctx))
		}
	}()
	// stop ends the run early; an interrupt has its own message.
	stop := func(err error) int {
		if ctx.Err() == nil {
			s.prog.printf("%v", err)
		}
		return exitCode(ctx, 1)
	}
	outDir := s.prepareOut(started)

	work, err := os.MkdirTemp("", "headbench-")
	if err != nil {
		return stop(fmt.Errorf("no temporary folder: %w", err))
	}
	s.cl.push("remove "+work, func() error { return os.RemoveAll(work) })

	in, err := s.prepareInput(work)
	if err != nil {
		return stop(err)
	}
	res.Input = in
	figs, strace, err := s.prepareTools(ctx, work, res)
	if err != nil {
		return stop(err)
	}
	targets := s.prepareTargets(ctx, work, in)
	if ctx.Err() != nil {
		return stop(ctx.Err())
	}
	res.Targets = targets
	if s.afterSetup != nil {
		s.afterSetup()
	}

	var jobs []*job
	for _, t := range targets {
		for _, f := range figs {
			jobs = append(jobs, &job{fig: f, tgt: t})
		}
	}
	if jobs, err = s.measure(ctx, jobs, in, strace, res); err != nil {
		return stop(err)
	}
	res.Machine.LoadAfter = loadAverage()
	res.Duration = time.Since(started)
	res.Notes = s.notes
	res.fill(jobs, in.Bytes)
	s.writeReports(outDir, res)
	return 0
}

// prepareTools builds and finds the programs, says in res where getdelim
// comes from, and returns the figures that can be taken and strace's path
// ("" when it is missing or does not work).
func (s *session) prepareTools(ctx context.Context, work string, res *results) ([]*figure, string, error) {
	s.prog.printf("building getdelim and the peers")
	bin := filepath.Join(work, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		return nil, "", err
	}
	tl := findTools(ctx, bin, s.o.getdelim)
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	res.Getdelim = tl.getdelimFrom
	figs, notes := planFigures(s.o, tl)
	for _, n := range notes {
		// Without getdelim the run misses its point; a missing peer is
		// only a smaller table.
		s.note(tl.getdelim == "", "%s", n)
	}
	if tl.strace == "" && slices.ContainsFunc(figs, func(f *figure) bool { return !f.getdelim }) {
		s.note(false, "peers' read and write counts: none: %s", tl.missing["strace"])
	}
	return figs, tl.strace, nil
}

// measure checks, counts and times the jobs, and returns those that passed
// the check.
func (s *session) measure(ctx context.Context, jobs []*job, in inputInfo, strace string, res *results) ([]*job, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	defer devnull.Close()
	jobs = s.check(ctx, jobs, in)
	if ctx.Err() == nil {
		s.count(ctx, jobs, in, strace, devnull)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	before := rssFloor(ctx, devnull)
	if err := s.time(ctx, jobs, in, devnull); err != nil {
		return nil, err
	}
	res.RSSFloor = max(before, rssFloor(ctx, devnull))
	return jobs, nil
}

// interrupted is the cause of a context cancelled by a signal. Its message
// is the plain word a user expects after Ctrl-C; the signal is in the exit
// status.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted" }

// exitCode returns 128+signal when ctx was cancelled by a signal, as a shell
// reports a process killed by it, and code otherwise.
func exitCode(ctx context.Context, code int) int {
	var in interrupted
	if errors.As(context.Cause(ctx), &in) {
		if sig, ok := in.sig.(unix.Signal); ok {
			return 128 + int(sig)
		}
		return 130
	}
	return code
}

// prepareOut makes the output folder. It returns "" when it cannot, after
// saying so: the run goes on and the summary goes to standard output.
func (s *session) prepareOut(started time.Time) string {
	dir := s.o.out
	if dir == "" {
		base := "headbench-" + started.Format("20060102-150405")
		dir = base
		for i := 2; ; i++ {
			if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
				break
			}
			dir = fmt.Sprintf("%s-%d", base, i)
		}
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.note(true, "output folder: %v; the results will only be shown on standard output", err)
		return ""
	}
	if errors.Is(statErr, os.ErrNotExist) {
		// A run that ends before writing anything (an interrupt, no
		// input) leaves no empty folder behind.
		s.cl.push("remove the empty "+dir, func() error { return removeIfEmpty(dir) })
	}
	return dir
}

// removeIfEmpty removes dir if it holds nothing.
func removeIfEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) > 0 {
		return err
	}
	return os.Remove(dir)
}

// prepareInput finds or makes the input and reads it once, which puts it in
// the page cache and gives the checksum every command's output must match.
func (s *session) prepareInput(work string) (inputInfo, error) {
	var in inputInfo
	if s.o.input != "" {
		st, err := os.Stat(s.o.input)
		switch {
		case err != nil:
			return in, fmt.Errorf("--input: %v", err)
		case !st.Mode().IsRegular():
			return in, fmt.Errorf("--input %s: not a regular file", s.o.input)
		case st.Size() == 0:
			return in, fmt.Errorf("--input %s: empty file", s.o.input)
		}
		in.Path, _ = filepath.Abs(s.o.input)
	} else {
		path, err := s.generate(work)
		if err != nil {
			return in, err
		}
		in.Path, in.Generated, in.Seed = path, true, seedDefault
	}
	s.prog.printf("reading %s into the page cache", in.Path)
	sum, n, lines, err := scanInput(in.Path)
	if err != nil {
		return in, fmt.Errorf("reading the input: %v", err)
	}
	in.Bytes, in.Lines, in.crc = n, lines, sum
	return in, nil
}

// scanInput reads path once and returns its CRC-32C, size and line count,
// counting a last line without a newline.
func scanInput(path string) (sum uint32, n, lines int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	buf := make([]byte, 1<<20)
	last := byte('\n')
	for {
		m, err := f.Read(buf)
		if m > 0 {
			h.Write(buf[:m])
			n += int64(m)
			lines += int64(countByte(buf[:m], '\n'))
			last = buf[m-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, 0, err
		}
	}
	if last != '\n' {
		lines++
	}
	return h.Sum32(), n, lines, nil
}

// prepareTargets returns the targets asked for that could be made; each one
// that could not is reported. When --fs was not given and nothing could be
// mounted (not root, no loop devices), it returns the local file system.
func (s *session) prepareTargets(ctx context.Context, work string, in inputInfo) []*target {
	var targets []*target
	for _, name := range s.o.fs {
		t, err := s.prepareTarget(ctx, work, name, in)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			// A file system this machine cannot mount is only a
			// smaller table; one that failed is a failure.
			s.note(!errors.As(err, new(unavailable)), "fs=%s: left out: %v", name, err)
			continue
		}
		targets = append(targets, t)
	}
	if len(targets) == 0 && s.o.fsDefault {
		s.note(false, "no file system could be mounted: the figures are for the local file system only")
		if t, err := s.prepareTarget(ctx, work, "local", in); err != nil {
			s.note(true, "fs=local: %v", err)
		} else {
			targets = append(targets, t)
		}
	}
	// Flush the copies (and the loop devices' backing files) now, so that
	// no writeback runs beside the timed runs.
	unix.Sync()
	return targets
}

// unavailable is why a file system cannot be mounted here.
type unavailable string

func (u unavailable) Error() string { return string(u) }

// prepareTarget returns the target called name: the input where it is for
// local, else a mount with a copy of the input, read once so that it is
// in the page cache.
func (s *session) prepareTarget(ctx context.Context, work, name string, in inputInfo) (*target, error) {
	if name == "local" {
		return newTarget("local", in.Path, "")
	}
	fs, err := fsmount.Lookup(name)
	if err != nil {
		return nil, err
	}
	if ok, why := fs.Available(); !ok {
		return nil, unavailable(why)
	}
	s.prog.printf("mounting fs=%s and copying the input there", name)
	t, err := mountFS(ctx, work, fs, in.Path, &s.cl)
	if err != nil {
		return nil, err
	}
	if err := warm(t.Input); err != nil {
		return nil, fmt.Errorf("reading the input: %v", err)
	}
	return t, nil
}

// rssFloor returns the least peak RSS Linux reports for any child of
// headbench: the largest of three runs of true(1). Linux counts in a child's
// peak what its parent had resident when the child was started (os/exec
// starts children with vfork, and exec charges the old memory), so every
// max RSS figure is an upper bound, and this is how much of it is
// headbench's. Like every timed run, it returns headbench's garbage to the
// system first, which keeps the floor low and the same for all.
func rssFloor(ctx context.Context, devnull *os.File) int64 {
	bin, err := exec.LookPath("true")
	if err != nil {
		return 0
	}
	var floor int64
	for range 3 {
		debug.FreeOSMemory()
		smp, _, err := runOnce(ctx, runSpec{argv: []string{bin}, stdout: devnull})
		if err != nil {
			return 0
		}
		floor = max(floor, smp.MaxRSS)
	}
	return floor
}
