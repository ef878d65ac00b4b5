//go:build linux

// Command filesbench measures issue 22's idiom matrix: ordinary Go
// programs that do their I/O through *os.File (fmt.Fprintf and log to a
// file, fmt.Scan and Fscan, binary.Read, one-byte reads, gob and json
// encoders), each built as it is written (plain), with bufio added by hand
// (bufio), with `stdiobuf build -files` (files), `stdiobuf build -stdout`
// (stdout, for the programs that print) and `stdiobuf build` alone (shim:
// stream in place of bufio, os as it is), and the same loop in C on glibc
// stdio (c); and programs that already buffer (bufio over their files,
// 128 KiB blocks), for which the target is their plain time: shim tells
// what of a files build's time is stream's rather than os's buffers.
//
// It makes its data in a temporary folder, builds every program of every
// variant once, checks each run's output, and runs rounds of every
// (idiom, variant) pair, the order rotated by one each round, taking the
// CPU time (user + system, from the process's rusage) and the wall time of
// each run. One more run of each pair under strace -f -c on a smaller
// dataset, and one on empty input, give the read/write-family system
// calls per record: (calls on N records - calls on none) / N. It writes
// runs.tsv (every run) and results.md (medians, ratios to C's median from
// the same rounds, the machine, load average and command) into -out.
//
//	bench/files.sh [-records N] [-rounds R] [-variants plain,bufio,stdout,files,c,shim] [-idioms LIST] [-out DIR]
//
// A variant is one line of variantTable.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// variant says how a variant's programs are built.
type variant struct {
	name string
	// src is the folder under bench/files the program comes from: plain
	// and bufio hold Go programs (a folder per program), c holds C files.
	src string
	// build is the build command; {out} is the binary, {src} the program's
	// folder or C file, {stdiobuf} this module's cmd/stdiobuf, built first,
	// {goflags} the flags -funcalign asks of a Go build (none by default).
	build string
	// printing limits the variant to idioms that print on standard output.
	printing bool
}

// variantTable holds every variant -variants may name.
var variantTable = []variant{
	{name: "plain", src: "plain", build: "go build {goflags} -o {out} ./{src}"},
	{name: "bufio", src: "bufio", build: "go build {goflags} -o {out} ./{src}"},
	{name: "stdout", src: "plain", build: "{stdiobuf} build -stdout {goflags} -o {out} ./{src}", printing: true},
	{name: "c", src: "c", build: "cc -O2 -o {out} {src}.c"},
	{name: "files", src: "plain", build: "{stdiobuf} build -files {goflags} -o {out} ./{src}"},
	{name: "shim", src: "plain", build: "{stdiobuf} build {goflags} -o {out} ./{src}"},
}

// straceSet is the system calls counted: the read and write family.
const straceSet = "read,write,pread64,pwrite64,readv,writev"

// config is what the flags ask for.
type config struct {
	records, straceRecords, rounds int
	funcAlign                      int // the linker's -funcalign for every Go program; 0: its default
	variants                       []variant
	idioms                         []idiom
	out                            string
	command                        string
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "filesbench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "filesbench:", err)
		stop()
		os.Exit(1)
	}
}

// parseFlags returns the configuration args ask for, or an error naming
// what is wrong with them.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("filesbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{command: "bench/files.sh " + strings.Join(args, " ")}
	fs.IntVar(&cfg.records, "records", 100000, "records (lines, integers, 16-byte records) per timed run; the programs that already buffer run on a multiple (idioms.go's scale)")
	fs.IntVar(&cfg.straceRecords, "strace-records", 10000, "records of the run under strace that counts system calls")
	fs.IntVar(&cfg.rounds, "rounds", 5, "timed `rounds`, each running every idiom and variant once")
	fs.IntVar(&cfg.funcAlign, "funcalign", 0, "align every Go program's functions to `N` bytes, a power of two from 16 to 4096 (the linker's -funcalign; 0: its default); code layout alone moves a program's time by several percent, so a difference that small between variants is to be checked at another alignment")
	variants := fs.String("variants", "plain,bufio,stdout,files,c", "the variants, comma-separated: "+strings.Join(variantNamesOf(variantTable), ", "))
	names := make([]string, len(idioms))
	for i, id := range idioms {
		names[i] = id.name
	}
	only := fs.String("idioms", strings.Join(names, ","), "the idioms, comma-separated")
	fs.StringVar(&cfg.out, "out", filepath.Join("bench", "results", time.Now().UTC().Format("2006-01-02")+"-files"), "the `folder` for runs.tsv and results.md")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if cfg.records < 1 || cfg.straceRecords < 1 || cfg.rounds < 1 {
		return nil, fmt.Errorf("-records, -strace-records and -rounds must be at least 1 (have %d, %d, %d)", cfg.records, cfg.straceRecords, cfg.rounds)
	}
	if a := cfg.funcAlign; a != 0 && (a < 16 || a > 4096 || a&(a-1) != 0) {
		return nil, fmt.Errorf("-funcalign must be 0 or a power of two from 16 to 4096 (have %d)", a)
	}
	var err error
	if cfg.variants, err = pick(*variants, variantTable, func(v variant) string { return v.name }); err != nil {
		return nil, fmt.Errorf("-variants: %w", err)
	}
	if cfg.idioms, err = pick(*only, idioms, func(id idiom) string { return id.name }); err != nil {
		return nil, fmt.Errorf("-idioms: %w", err)
	}
	return cfg, nil
}

// pick returns the elements of all named in the comma-separated list, in
// the list's order, or an error naming an unknown or repeated name.
func pick[T any](list string, all []T, name func(T) string) ([]T, error) {
	var out []T
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, fmt.Errorf("%q named twice", n)
		}
		seen[n] = true
		i := slices.IndexFunc(all, func(t T) bool { return name(t) == n })
		if i < 0 {
			var known []string
			for _, t := range all {
				known = append(known, name(t))
			}
			return nil, fmt.Errorf("unknown name %q (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	if len(out) == 0 {
		return nil, errors.New("names nothing")
	}
	return out, nil
}

// job is one (idiom, variant) pair and its binary.
type job struct {
	id  idiom
	v   variant
	bin string
}

// jobs returns every pair whose program exists in the variant's folder
// (bufio/ has no version of the programs that already buffer, c/ none of
// gob), without the printing-only variants for idioms that do not print.
func jobs(root string, cfg *config) []job {
	var out []job
	for _, id := range cfg.idioms {
		for _, v := range cfg.variants {
			if v.printing && !id.stdout {
				continue
			}
			if _, err := os.Stat(sourcePath(root, v, id)); err != nil {
				continue
			}
			out = append(out, job{id: id, v: v})
		}
	}
	return out
}

// sourcePath returns the program's folder, or its C file.
func sourcePath(root string, v variant, id idiom) string {
	p := filepath.Join(root, "bench", "files", v.src, id.prog)
	if v.src == "c" {
		p += ".c"
	}
	return p
}

// buildCommand returns the variant's build command for the program, its
// placeholders filled in: {goflags} by the Go build flags funcAlign asks
// for, none for 0.
func buildCommand(v variant, prog, out, stdiobuf string, funcAlign int) []string {
	src := filepath.Join("bench", "files", v.src, prog)
	r := strings.NewReplacer("{out}", out, "{src}", src, "{stdiobuf}", stdiobuf)
	var argv []string
	for _, f := range strings.Fields(v.build) {
		switch {
		case f != "{goflags}":
			argv = append(argv, r.Replace(f))
		case funcAlign != 0:
			argv = append(argv, "-ldflags=-funcalign="+strconv.Itoa(funcAlign))
		}
	}
	return argv
}

func run(ctx context.Context, cfg *config) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	for _, tool := range []string{"go", "cc", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("needs %s on PATH: %w", tool, err)
		}
	}
	work, err := os.MkdirTemp("", "filesbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	load0 := loadAverage()
	started := time.Now().UTC()

	all := jobs(root, cfg)
	if err := buildAll(ctx, root, work, all, cfg.funcAlign); err != nil {
		return err
	}
	sets := map[int]*dataset{}
	for _, j := range all {
		for _, n := range []int{j.id.times(cfg.records), j.id.times(cfg.straceRecords), 0} {
			if sets[n] == nil {
				if sets[n], err = makeDataset(work, n); err != nil {
					return err
				}
			}
		}
	}
	out := filepath.Join(work, "out")
	var runs []runRecord

	fmt.Fprintf(os.Stderr, "filesbench: counting system calls of %d programs under strace\n", len(all))
	for _, j := range all {
		for _, n := range []int{j.id.times(cfg.straceRecords), 0} {
			r, err := runOnce(ctx, j, sets[n], out, filepath.Join(work, "strace.txt"))
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
	}
	for round := range cfg.rounds {
		for k := range all {
			j := all[(k+round)%len(all)]
			r, err := runOnce(ctx, j, sets[j.id.times(cfg.records)], out, "")
			if err != nil {
				return err
			}
			r.round = round + 1
			runs = append(runs, r)
		}
		fmt.Fprintf(os.Stderr, "filesbench: round %d of %d done (load %s)\n", round+1, cfg.rounds, strings.Join(loadAverage(), " "))
	}

	m := machineInfo(root, work)
	m.started, m.load0, m.load1 = started, load0, loadAverage()
	m.command = cfg.command
	m.records, m.straceRecords, m.rounds = cfg.records, cfg.straceRecords, cfg.rounds
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	var tsv strings.Builder
	writeTSV(&tsv, runs)
	if err := os.WriteFile(filepath.Join(cfg.out, "runs.tsv"), []byte(tsv.String()), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	writeMarkdown(&md, m, cfg.variants, cfg.idioms, summarize(runs))
	if err := os.WriteFile(filepath.Join(cfg.out, "results.md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	fmt.Print(md.String())
	return nil
}

// moduleRoot returns the working folder if it is this module's root.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(wd, "bench", "files", "idioms.go")); err != nil {
		return "", fmt.Errorf("run from the module's root (no bench/files/idioms.go in %s)", wd)
	}
	return wd, nil
}

// buildAll builds every job's binary into work/bin once, and cmd/stdiobuf
// first if a variant needs it.
func buildAll(ctx context.Context, root, work string, all []job, funcAlign int) error {
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	stdiobuf := filepath.Join(bin, "stdiobuf")
	if slices.ContainsFunc(all, func(j job) bool { return strings.Contains(j.v.build, "{stdiobuf}") }) {
		if err := command(ctx, root, "go", "build", "-o", stdiobuf, "./cmd/stdiobuf"); err != nil {
			return err
		}
	}
	built := map[string]bool{}
	for i := range all {
		j := &all[i]
		j.bin = filepath.Join(bin, j.v.name+"-"+j.id.prog)
		if built[j.bin] {
			continue
		}
		built[j.bin] = true
		argv := buildCommand(j.v, j.id.prog, j.bin, stdiobuf, funcAlign)
		fmt.Fprintf(os.Stderr, "filesbench: %s\n", strings.Join(argv, " "))
		if err := command(ctx, root, argv[0], argv[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// command runs name in dir, its output to this process's standard error,
// and returns an error naming the command if it fails.
func command(ctx context.Context, dir, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

// fifoStdin gives cmd, whose shell opens the FIFO named by
// FILESBENCH_FIFO as the program's standard input, a FIFO at fifo that a
// goroutine fills with the file input. Under strace a pipe comes so:
// strace, the program's parent, would otherwise hold the pipe's read
// end as its own standard input, and -files reads a pipe plainly where
// another process of its session holds it. release, called after the
// run, waits for the goroutine and removes the FIFO.
func fifoStdin(cmd *exec.Cmd, input, fifo string) (release func(), err error) {
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), "FILESBENCH_FIFO="+fifo)
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Opening the write end waits for the program's shell.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		in, err := os.Open(input)
		if err != nil {
			return
		}
		defer in.Close()
		io.Copy(w, in)
	}()
	return func() {
		select {
		case <-done:
		default:
			// A program that never opened the FIFO, or stopped reading
			// it, leaves the writer waiting: a reader's open and close
			// let it go (its writes then fail).
			if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close()
			}
			<-done
		}
		os.Remove(fifo)
	}, nil
}

// runRecord is one run: timed (round >= 1) or counted under strace
// (round 0, calls set).
type runRecord struct {
	round        int
	idiom, varnt string
	records      int64
	wall         time.Duration
	user, sys    time.Duration
	calls        int64 // read/write-family calls, -1 when not counted
}

// runOnce runs the job once on d and checks its output. With a non-empty
// straceOut it runs the program under strace -f -c, writing the summary
// there, and counts its calls.
func runOnce(ctx context.Context, j job, d *dataset, out, straceOut string) (runRecord, error) {
	r := runRecord{idiom: j.id.name, varnt: j.v.name, records: d.records(j.id), calls: -1}
	if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return r, err
	}
	argv := append([]string{j.bin}, d.args(j.id, out)...)
	// Under strace a pipe comes through a FIFO (fifoStdin).
	viaFIFO := straceOut != "" && j.id.stdin == stdinPipe
	if viaFIFO {
		argv = append([]string{"sh", "-c", `exec "$0" "$@" < "$FILESBENCH_FIFO"`}, argv...)
	}
	if straceOut != "" {
		argv = append([]string{"strace", "-f", "-c", "-o", straceOut, "-e", "trace=" + straceSet, "--"}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	// In a session of its own: -files decides a pipe from the processes
	// of the program's session, and the caller's may hold one whose
	// descriptors cannot be read (a sandbox's init, in a job started
	// without a session), which would keep the pipe plain.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if viaFIFO {
		release, err := fifoStdin(cmd, d.path(j.id), out+".fifo")
		if err != nil {
			return r, err
		}
		defer release()
	} else if j.id.stdin != stdinNone {
		in, err := os.Open(d.path(j.id))
		if err != nil {
			return r, err
		}
		defer in.Close()
		cmd.Stdin = in
		if j.id.stdin == stdinPipe {
			// Not an *os.File: os/exec makes a pipe and copies into it.
			cmd.Stdin = struct{ io.Reader }{in}
		}
	}
	start := time.Now()
	err := cmd.Run()
	r.wall = time.Since(start)
	what := fmt.Sprintf("%s (%s, %d records)", strings.Join(argv, " "), j.id.name, d.n)
	if err != nil {
		return r, fmt.Errorf("%s: %w: %s", what, err, strings.TrimSpace(stderr.String()))
	}
	r.user, r.sys = cmd.ProcessState.UserTime(), cmd.ProcessState.SystemTime()
	var file []byte
	if j.id.writes {
		if file, err = os.ReadFile(out); err != nil {
			return r, fmt.Errorf("%s: %w", what, err)
		}
	}
	wantOut, wantFile := d.wantCached(j.id)
	if err := checkOutput(j.id, wantOut, wantFile, stdout.String(), file); err != nil {
		return r, fmt.Errorf("%s: %w", what, err)
	}
	if straceOut != "" {
		text, err := os.ReadFile(straceOut)
		if err != nil {
			return r, err
		}
		counts, err := parseStraceCounts(string(text))
		if err != nil {
			return r, fmt.Errorf("%s: %w", what, err)
		}
		r.calls = 0
		for _, name := range strings.Split(straceSet, ",") {
			r.calls += counts[name]
		}
	}
	return r, nil
}
