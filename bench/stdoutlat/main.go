//go:build linux

// Command stdoutlat measures how late standard output arrives from a
// program built with `stdiobuf build -stdout`, and what the bound on its
// buffer (STDIOBUF_MAXDELAY) costs a program that writes little: it runs
// bench/trickle, built plainly and with -stdout, with its standard output
// to a pipe it reads, and stamps each line as it arrives.
//
//	stdoutlat -plain BIN -stdout BIN [-bounds LIST] [-periods LIST] [-span D] [-rounds N]
//
// For each period (a line every 1 ms, 10 ms, 100 ms), the plain build and
// the -stdout build under each candidate bound run for -span; for each it
// reports its write(2) calls on standard output (one more run, under
// strace), and the medians over the rounds of: all its write(2) calls per
// second, its CPU time per second, the median and the worst delay of a
// line (from the child's stamp to the reader's). Then the READY case: one
// line, then nothing for a while. The rounds are interleaved: round 1 of
// every case, then round 2, and so on. Tables go to standard output in
// Markdown.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// boundEnv is the variable that sets the bound (internal/osstdout).
const boundEnv = "STDIOBUF_MAXDELAY"

func main() {
	plain := flag.String("plain", "", "bench/trickle built plainly")
	stdout := flag.String("stdout", "", "bench/trickle built with stdiobuf build -stdout")
	bounds := flag.String("bounds", "none,1ms,5ms,10ms,20ms,50ms,100ms", "the bounds to try (STDIOBUF_MAXDELAY values)")
	periods := flag.String("periods", "1ms,10ms,100ms", "the times between lines to try")
	span := flag.Duration("span", time.Second, "how long each trickle runs")
	rounds := flag.Int("rounds", 3, "interleaved rounds")
	hold := flag.Duration("hold", 300*time.Millisecond, "how long the READY program waits after its line")
	flag.Parse()
	if *plain == "" || *stdout == "" {
		fmt.Fprintln(os.Stderr, "usage: stdoutlat -plain BIN -stdout BIN [flags]")
		os.Exit(2)
	}
	var ps []time.Duration
	for _, p := range strings.Split(*periods, ",") {
		d, err := time.ParseDuration(p)
		if err != nil || d <= 0 {
			fmt.Fprintf(os.Stderr, "stdoutlat: bad period %q\n", p)
			os.Exit(2)
		}
		ps = append(ps, d)
	}
	variants := []variant{{name: "plain", bin: *plain}}
	for _, b := range strings.Split(*bounds, ",") {
		variants = append(variants, variant{name: "-stdout, bound " + b, bin: *stdout, bound: b})
	}
	// trickles calls f for each period and variant, with the key of
	// their figures and the trickle's arguments.
	trickles := func(f func(key string, v variant, args ...string) error) {
		for _, p := range ps {
			n := max(int(*span/p), 10)
			for _, v := range variants {
				if err := f(p.String()+"\x00"+v.name, v, "-period", p.String(), "-lines", strconv.Itoa(n)); err != nil {
					fmt.Fprintf(os.Stderr, "stdoutlat: %s, period %v: %v\n", v.name, p, err)
					os.Exit(1)
				}
			}
		}
	}
	stdoutWrites := make(map[string]int)
	trickles(func(key string, v variant, args ...string) (err error) {
		stdoutWrites[key], err = v.countWrites(args...)
		return err
	})
	fmt.Fprintln(os.Stderr, "# write(2) calls on descriptor 1 counted")
	samples := make(map[string][]sample)
	readies := make(map[string][]sample)
	readyVariants := []variant{{name: "plain", bin: *plain}, {name: "-stdout, default bound", bin: *stdout}, {name: "-stdout, bound none", bin: *stdout, bound: "none"}}
	for r := range *rounds {
		trickles(func(key string, v variant, args ...string) error {
			s, err := v.run(args...)
			samples[key] = append(samples[key], s)
			return err
		})
		for _, v := range readyVariants {
			s, err := v.run("-ready", "-hold", hold.String())
			if err != nil {
				fmt.Fprintf(os.Stderr, "stdoutlat: READY, %s: %v\n", v.name, err)
				os.Exit(1)
			}
			readies[v.name] = append(readies[v.name], s)
		}
		fmt.Fprintf(os.Stderr, "# round %d of %d done\n", r+1, *rounds)
	}
	fmt.Printf("A line every PERIOD for %v (at least 10 lines), into a pipe; medians of %d interleaved rounds.\n", *span, *rounds)
	fmt.Println("Delay: from the writer's stamp to the reader's. Writes to stdout: write(2) calls on descriptor 1, counted with strace in one more run;")
	fmt.Println("all writes: every write(2) call of the writer (/proc/self/io syscw: the runtime's wake-ups of its poller, eventfd writes, count there), per second.")
	fmt.Println("CPU: user + system time of the writer, per second.")
	fmt.Println()
	fmt.Println("| period | build | lines | writes to stdout | all writes/s | CPU ms/s | median delay ms | worst delay ms |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, p := range ps {
		for _, v := range variants {
			key := p.String() + "\x00" + v.name
			ss := samples[key]
			fmt.Printf("| %v | %s | %d | %d | %.1f | %.2f | %.2f | %.2f |\n", p, v.name, ss[0].lines, stdoutWrites[key],
				median(ss, func(s sample) float64 { return float64(s.writes) / s.elapsed.Seconds() }),
				median(ss, func(s sample) float64 { return ms(s.cpu) / s.elapsed.Seconds() }),
				median(ss, func(s sample) float64 { return ms(s.p50) }),
				median(ss, func(s sample) float64 { return ms(s.worst) }))
		}
	}
	fmt.Println()
	fmt.Printf("READY: one line, then nothing for %v; the line's delay, median and worst of %d rounds.\n", *hold, *rounds)
	fmt.Println()
	fmt.Println("| build | median delay ms | worst delay ms |")
	fmt.Println("|---|---|---|")
	for _, v := range readyVariants {
		ss := readies[v.name]
		worst := slices.MaxFunc(ss, func(a, b sample) int { return int(a.worst - b.worst) })
		fmt.Printf("| %s | %.2f | %.2f |\n", v.name, median(ss, func(s sample) float64 { return ms(s.worst) }), ms(worst.worst))
	}
}

// variant is one build run one way.
type variant struct {
	name  string
	bin   string
	bound string // STDIOBUF_MAXDELAY, or "" for unset
}

// sample is what one run showed.
type sample struct {
	lines      int
	writes     int           // write(2) calls of the writer, on any descriptor
	cpu        time.Duration // its user and system time
	elapsed    time.Duration // from start to exit
	p50, worst time.Duration // delays of its lines
}

// env is the environment v runs in.
func (v variant) env() []string {
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, boundEnv+"=") })
	if v.bound != "" {
		env = append(env, boundEnv+"="+v.bound)
	}
	return env
}

// countWrites runs v with args under strace, its standard output to a
// pipe, and returns its write(2) calls on descriptor 1.
func (v variant) countWrites(args ...string) (int, error) {
	log, err := os.CreateTemp("", "stdoutlat-strace-")
	if err != nil {
		return 0, err
	}
	log.Close()
	defer os.Remove(log.Name())
	cmd := exec.Command("strace", append([]string{"-f", "-o", log.Name(), "-e", "trace=write", v.bin}, args...)...)
	cmd.Env = v.env()
	if _, err := cmd.Output(); err != nil {
		return 0, err
	}
	b, err := os.ReadFile(log.Name())
	if err != nil {
		return 0, err
	}
	return bytes.Count(b, []byte(" write(1, ")), nil
}

// run runs v with args, its standard output to a pipe read here.
func (v variant) run(args ...string) (sample, error) {
	cmd := exec.Command(v.bin, args...)
	cmd.Env = v.env()
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	out, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	var delays []time.Duration
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		now := time.Now()
		f := strings.Fields(line)
		if len(f) != 2 {
			return sample{}, fmt.Errorf("bad line %q", line)
		}
		stamp, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return sample{}, fmt.Errorf("bad line %q", line)
		}
		delays = append(delays, now.Sub(time.Unix(0, stamp)))
	}
	if err := cmd.Wait(); err != nil {
		return sample{}, fmt.Errorf("%v: %s", err, errBuf.Bytes())
	}
	s := sample{lines: len(delays), elapsed: time.Since(start)}
	if _, err := fmt.Sscanf(errBuf.String(), "writes %d", &s.writes); err != nil {
		return sample{}, fmt.Errorf("no write count in %q", errBuf.Bytes())
	}
	s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if len(delays) == 0 {
		return sample{}, fmt.Errorf("no line")
	}
	slices.Sort(delays)
	s.p50, s.worst = delays[len(delays)/2], delays[len(delays)-1]
	return s, nil
}

// median is the median of f over ss.
func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
