package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/procinfo"
	"github.com/stdiobuf/stdiobuf/internal/shimtools"
)

// machine is what the report says about where it ran.
type machine struct {
	date, kernel, cpu, mem, goVersion, strace, stdiobuf string
	cpus                                                int
	loadStart, loadEnd                                  string
	elapsed                                             time.Duration
}

func machineInfo() machine {
	m := machine{
		date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		kernel:    commandLine("uname", "-sr"),
		cpus:      runtime.NumCPU(),
		goVersion: commandLine("go", "version"),
		strace:    firstLine(commandLine("strace", "-V")),
		loadStart: loadAverage(),
	}
	m.cpu = procField("/proc/cpuinfo", "model name")
	m.mem = procField("/proc/meminfo", "MemTotal")
	return m
}

// commandLine runs a command and returns its trimmed output, or why not.
func commandLine(name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("(%s: %v)", name, err)
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// procField returns the value of the first "name: value" line in a /proc
// file, or "unknown".
func procField(path, name string) string {
	if v, ok := procinfo.Field(path, name); ok {
		return v
	}
	return "unknown"
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute figures.
func loadAverage() string {
	load := procinfo.LoadAverage()
	if len(load) < 3 {
		return "unknown"
	}
	return strings.Join(load[:3], " ")
}

// median returns the median wall time and the CPU time of the run that
// gave it, and the spread of the wall times ((max-min)/median).
func median(ts []shimtools.Timing) (shimtools.Timing, float64) {
	s := slices.Clone(ts)
	slices.SortFunc(s, func(a, b shimtools.Timing) int { return int(a.Wall - b.Wall) })
	mid := s[len(s)/2]
	return mid, float64(s[len(s)-1].Wall-s[0].Wall) / float64(mid.Wall)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

// callsOf returns the call counts of k's tool, target and build, which
// count took into the pipe.
func (res *results) callsOf(k key) shimtools.Calls {
	k.output = "pipe"
	return res.calls[k]
}

// line is the issue's one-line form for a configuration.
func line(t shimtools.Tool, tgt *target, out string, res *results) string {
	p := key{t.Name, tgt.name, out, shimtools.Plain}
	s := key{t.Name, tgt.name, out, shimtools.Shim}
	tp, _ := median(res.times[p])
	ts, _ := median(res.times[s])
	return fmt.Sprintf("tool %s (%s, %s): %d reads -> %d reads, %s -> %s (%.2fx)",
		t.Name, tgt.name, out, res.callsOf(p).Reads, res.callsOf(s).Reads,
		seconds(tp.Wall), seconds(ts.Wall), ts.Wall.Seconds()/tp.Wall.Seconds())
}

// summary is what the terminal shows at the end.
func summary(o options, targets []*target, res *results) string {
	var b strings.Builder
	for _, tgt := range targets {
		for _, t := range o.tools {
			for _, out := range outputs() {
				fmt.Fprintln(&b, line(t, tgt, out.name, res))
			}
		}
	}
	return b.String()
}

// render writes the Markdown report.
func render(o options, m machine, targets []*target, res *results) string {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# `stdiobuf build` on third-party tools")
	p("")
	p("Measured by `go run ./bench/shimbench -runs %d -lines %d` on %s, in %s.", o.runs, o.lines, m.date, m.elapsed)
	p("")
	p("- machine: %d CPUs, %s, %s memory; %s", m.cpus, m.cpu, m.mem, m.kernel)
	p("- load average (1, 5, 15 min): %s at the start, %s at the end%s", m.loadStart, m.loadEnd, busy(m))
	p("- %s; %s", m.goVersion, m.strace)
	p("- stdiobuf: %s", strings.ReplaceAll(m.stdiobuf, "\n", "; "))
	for _, tgt := range targets {
		p("- %s: %s, st_blksize %d", tgt.name, tgt.how, tgt.blksize)
	}
	p("- input: the seed-shaped file of internal/seedinput (%d lines, seed %d; a tool with a divisor gets lines/divisor)", o.lines, 1)
	p("- each figure: the median of %d runs, the two builds of a configuration back to back in alternating order, after one warm-up round; read(2) and write(2) calls counted in one more run of each build into the pipe under `strace -f` (the output does not change a tool's reads, and /dev/null and a pipe both give a bufio.Writer st_blksize 4096)", o.runs)
	p("")
	p("## Tools")
	p("")
	p("| tool | module | reads with | input lines | why |")
	p("|---|---|---|---|---|")
	for _, t := range o.tools {
		p("| %s | %s `%s` | %s | %d | %s |", t.Name, t.ID(), t.Main, t.Buffer, o.lines/t.LinesDiv, t.Why)
	}
	p("")
	p("## go build -> stdiobuf build")
	p("")
	p("```")
	b.WriteString(summary(o, targets, res))
	p("```")
	p("")
	p("| tool | fs | output | reads (largest) | writes | median wall | ratio | user+sys CPU | spread |")
	p("|---|---|---|---|---|---|---|---|---|")
	for _, tgt := range targets {
		for _, t := range o.tools {
			for _, out := range outputs() {
				kp := key{t.Name, tgt.name, out.name, shimtools.Plain}
				ks := key{t.Name, tgt.name, out.name, shimtools.Shim}
				cp, cs := res.callsOf(kp), res.callsOf(ks)
				tp, sp := median(res.times[kp])
				ts, ss := median(res.times[ks])
				p("| %s | %s | %s | %d (%d) -> %d (%d) | %d -> %d | %s -> %s | %.2fx | %s -> %s | %.0f%%, %.0f%% |",
					t.Name, tgt.name, out.name, cp.Reads, cp.MaxAsk, cs.Reads, cs.MaxAsk, cp.Writes, cs.Writes,
					seconds(tp.Wall), seconds(ts.Wall), ts.Wall.Seconds()/tp.Wall.Seconds(),
					seconds(tp.User+tp.Sys), seconds(ts.User+ts.Sys), 100*sp, 100*ss)
			}
		}
	}
	p("")
	p("Where it cannot help:")
	p("")
	for _, tgt := range targets {
		if tgt.blksize <= 4096 {
			p("- on %s, st_blksize is %d, so the default policy, min(st_blksize, 128 KiB), gives bufio's own size: the reads do not change and neither should the time (a difference there is the machine's noise);", tgt.name, tgt.blksize)
		}
	}
	for _, t := range o.tools {
		if t.Buffer == shimtools.Fixed {
			p("- %s asks for %d bytes itself (bufio.NewReaderSize), and stream keeps a size the caller gives, as bufio does;", t.Name, t.Size)
		}
	}
	p("- a tool whose time is its own work per line, or one write(2) per output line, gains only the system time of the reads it no longer makes (next section).")
	p("")
	p("## Where the rest of the time goes")
	p("")
	p("From one run of each build on %s under `strace -f -c` with output to /dev/null (shares of the time the process spent in system calls;", targets[0].name)
	p("futex and nanosleep, the Go runtime's idle threads, are left out of the top list), write(2) calls per output line into the pipe,")
	p("and the CPU time of the median timed run into the pipe:")
	p("")
	p("| tool | build | read(2) | write(2) | other top calls | writes / output line | user, sys CPU |")
	p("|---|---|---|---|---|---|---|")
	for _, t := range o.tools {
		for _, bd := range shimtools.Builds() {
			k := key{t.Name, targets[0].name, "/dev/null", bd}
			kpipe := key{t.Name, targets[0].name, "pipe", bd}
			tm, _ := median(res.times[kpipe])
			p("| %s | %s | %s | %s | %s | %s | %s, %s |", t.Name, bd,
				callShare(res.profiles[k], "read"), callShare(res.profiles[k], "write"),
				topCalls(res.profiles[k], 2, "read", "write", "futex", "nanosleep"),
				perLine(res, kpipe), seconds(tm.User), seconds(tm.Sys))
		}
	}
	p("")
	for _, t := range o.tools {
		p("- %s", whereTime(t, targets, res))
	}
	p("")
	p("A tool that writes each output line with its own write(2) (fmt.Print, or a Write on os.Stdout) keeps doing so under")
	p("`stdiobuf build`: it swaps bufio, and os.Stdout is not bufio. That is what `stdiobuf build -stdout` is for.")
	p("")
	p("## Reproduce")
	p("")
	p("As root, from the repository's root, with strace and xfsprogs installed and the Go module proxy reachable:")
	p("")
	p("```sh")
	p("go run ./bench/shimbench -runs %d -lines %d   # writes bench/results/DATE-shim.md", o.runs, o.lines)
	p("```")
	return b.String()
}

// busy warns when the machine was loaded: the load average above the
// number of CPUs makes the times noisy.
func busy(m machine) string {
	for _, l := range []string{m.loadStart, m.loadEnd} {
		var one float64
		if _, err := fmt.Sscan(l, &one); err == nil && one > float64(m.cpus) {
			return fmt.Sprintf(" (**busy**: above the %d CPUs, so times are noisy)", m.cpus)
		}
	}
	return ""
}

// topCalls names the n system calls that took the most time, leaving out
// those named in skip.
func topCalls(rows []shimtools.Syscall, n int, skip ...string) string {
	rows = slices.DeleteFunc(slices.Clone(rows), func(r shimtools.Syscall) bool { return slices.Contains(skip, r.Name) })
	slices.SortStableFunc(rows, func(a, b shimtools.Syscall) int { return cmp.Compare(b.Seconds, a.Seconds) })
	var parts []string
	for _, r := range rows[:min(n, len(rows))] {
		parts = append(parts, fmt.Sprintf("%s %.0f%% (%d)", r.Name, r.Percent, r.Calls))
	}
	return strings.Join(parts, ", ")
}

// callShare gives one system call's calls and share of system-call time.
func callShare(rows []shimtools.Syscall, name string) string {
	for _, r := range rows {
		if r.Name == name {
			return fmt.Sprintf("%d calls, %.0f%%", r.Calls, r.Percent)
		}
	}
	return "none"
}

// perLine gives the write(2) calls per line written into the pipe.
func perLine(res *results, k key) string {
	n := res.lines[k]
	if n == 0 {
		return "no output lines"
	}
	w := res.calls[k].Writes
	return fmt.Sprintf("%d / %d = %.2f", w, n, float64(w)/float64(n))
}

// whereTime says in one sentence what decides a tool's time, from the
// stdiobuf build's figures on the first target into the pipe.
func whereTime(t shimtools.Tool, targets []*target, res *results) string {
	k := key{t.Name, targets[0].name, "pipe", shimtools.Shim}
	tm, _ := median(res.times[k])
	c := res.calls[k]
	cpu := tm.User + tm.Sys
	var b strings.Builder
	fmt.Fprintf(&b, "%s: of %s wall, %s is user CPU and %s system CPU", t.Name, seconds(tm.Wall), seconds(tm.User), seconds(tm.Sys))
	if n := res.lines[k]; c.Writes >= 1000 && float64(c.Writes) >= 0.5*float64(n) {
		fmt.Fprintf(&b, "; it makes %.2f write(2) calls per output line (%d), which stdiobuf build does not change", float64(c.Writes)/float64(n), c.Writes)
	} else {
		fmt.Fprintf(&b, "; its output takes %d write(2) calls", c.Writes)
	}
	switch {
	case t.Buffer == shimtools.Fixed:
		fmt.Fprintf(&b, "; it fixes its input buffer at %d bytes (NewReaderSize), so its reads do not change", t.Size)
	case cpu > 0 && tm.User > 2*tm.Sys:
		b.WriteString("; its own work per line (user CPU) is most of its CPU time, so fewer reads can save only a little system time")
	}
	return b.String() + "."
}
