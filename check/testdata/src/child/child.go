// Package child writes through struct fields that it binds to a file for
// a span of statements and gives to the processes it starts, whose output
// must interleave with its own, beside a field given to a process run
// once after the records and one that no process is given.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// handlerContext is what a shell gives the handler that starts a
// command: the runner's streams, copied.
type handlerContext struct {
	stdout io.Writer
	stdin  *os.File
}

// runner is a shell's state: a redirection puts the file it opens in
// stdout for the statement it applies to.
type runner struct {
	stdout io.Writer
	stdin  *os.File
}

func (r *runner) redirect(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	r.stdout = f
	return nil
}

func (r *runner) handler() handlerContext {
	return handlerContext{stdout: r.stdout, stdin: r.stdin}
}

func execHandler(hc handlerContext, args []string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = hc.stdout
	cmd.Stdin = hc.stdin
	return cmd.Run()
}

// echo is the shell's builtin: a write per argument to the runner's
// output, which the commands it starts share.
func (r *runner) echo(args []string) {
	for _, a := range args {
		fmt.Fprintln(r.stdout, a)
	}
}

// readLine reads a byte at a time: what follows the line is the next
// command's.
func (r *runner) readLine() []byte {
	var line []byte
	for {
		var b [1]byte
		n, err := r.stdin.Read(b[:])
		if n == 0 || err != nil || b[0] == '\n' {
			return line
		}
		line = append(line, b[0])
	}
}

func (r *runner) stmt(path string, args []string) error {
	oldOut, oldIn := r.stdout, r.stdin
	defer func() { r.stdout, r.stdin = oldOut, oldIn }()
	if err := r.redirect(path); err != nil {
		return err
	}
	switch args[0] {
	case "echo":
		r.echo(args[1:])
	case "read":
		r.readLine()
	default:
		return execHandler(r.handler(), args)
	}
	return nil
}

// job logs each step to a file bound for the run, which the command it
// starts writes its errors to, given through a parameter.
type job struct {
	log *os.File
}

func start(name string, errs io.Writer) error {
	cmd := exec.Command(name)
	cmd.Stderr = errs
	return cmd.Run()
}

func (j *job) run(f *os.File, steps []string) error {
	old := j.log
	j.log = f
	defer func() { j.log = old }()
	for _, s := range steps {
		fmt.Fprintln(j.log, "step", s)
	}
	return start(steps[0], j.log)
}

// status is a file, bound for the run, that the started command writes
// to as its descriptor 3.
type status struct {
	out *os.File
}

func (s *status) run(f *os.File, names []string) error {
	old := s.out
	s.out = f
	for _, n := range names {
		fmt.Fprintln(s.out, n)
	}
	cmd := exec.Command(names[0])
	cmd.ExtraFiles = append(cmd.ExtraFiles, s.out)
	err := cmd.Run()
	s.out = old
	return err
}

// spawner gives its output to os.StartProcess.
type spawner struct {
	out *os.File
}

func (p *spawner) run(f *os.File, names []string) error {
	old := p.out
	p.out = f
	defer func() { p.out = old }()
	for _, n := range names {
		fmt.Fprintln(p.out, n)
	}
	proc, err := os.StartProcess(names[0], names, &os.ProcAttr{Files: []*os.File{os.Stdin, p.out, os.Stderr}})
	if err != nil {
		return err
	}
	_, err = proc.Wait()
	return err
}

// forker gives its output's descriptor to syscall.ForkExec.
type forker struct {
	out *os.File
}

func (q *forker) run(f *os.File, names []string) error {
	old := q.out
	q.out = f
	defer func() { q.out = old }()
	for _, n := range names {
		fmt.Fprintln(q.out, n)
	}
	_, err := syscall.ForkExec(names[0], names, &syscall.ProcAttr{Files: []uintptr{0, q.out.Fd(), 2}})
	return err
}

// hooked writes its records, then gives the same output to a command
// run once after them: the records do not interleave with it.
type hooked struct {
	out *os.File
}

func (h *hooked) run(names []string) error {
	for _, n := range names {
		fmt.Fprintln(h.out, n) // want `^fmt.Fprintln in a loop writes to h.out unbuffered`
	}
	cmd := exec.Command(names[0])
	cmd.Stdout = h.out
	return cmd.Run()
}

// report binds its output to a file for a span of statements, and gives
// it to no process.
type report struct {
	out io.Writer
}

func (p *report) lines(f *os.File, names []string) {
	old := p.out
	p.out = f
	for _, n := range names {
		fmt.Fprintln(p.out, n) // want `^per-record write to f: fmt.Fprintln`
	}
	p.out = old
}

func main() {
	r := &runner{stdin: os.Stdin}
	r.stmt(os.Args[1], os.Args[2:])
	(&job{}).run(os.Stdout, os.Args)
	(&status{}).run(os.Stdout, os.Args)
	(&spawner{}).run(os.Stdout, os.Args)
	(&forker{}).run(os.Stdout, os.Args)
	(&hooked{out: os.Stdout}).run(os.Args)
	(&report{}).lines(os.Stdout, os.Args)
}
