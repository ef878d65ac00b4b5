// Command startup measures what a short program pays at its start and
// exit under `stdiobuf build -stdout` and `-files`: the CPU time (user
// and system, from the child's rusage) of bench/stdouthooks's hello (one
// line, then exit) or, with -case quiet, of its quiet (nothing written:
// no buffer takes a byte), built plainly, with this checkout's stdiobuf and with
// that of another revision, run with standard output to a regular file,
// a pipe and /dev/null. The builds run in interleaved rounds; the table
// gives each build's median and the median of its per-round ratios to
// the plain build's, with the ratios' quartiles.
//
//	bench/startup.sh [-rounds N] [-rev REV] [-case hello|quiet] [-out RESULTS.md]
//
// REV (default main) is built from `git archive`; -rev "" leaves it out.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 201, "interleaved rounds")
	rev := flag.String("rev", "main", "the revision to compare with; empty for none")
	out := flag.String("out", "", "the results file (default bench/results/DATE-startup.md)")
	which := flag.String("case", "hello", "bench/stdouthooks's case: hello (one line) or quiet (nothing)")
	flag.Parse()
	if *rounds < 3 || flag.NArg() != 0 || *which != "hello" && *which != "quiet" {
		fmt.Fprintln(os.Stderr, "usage: startup [-rounds N (at least 3)] [-rev REV] [-case hello|quiet] [-out RESULTS.md]")
		os.Exit(2)
	}
	if *out == "" {
		*out = filepath.Join("bench", "results", time.Now().UTC().Format("2006-01-02")+"-startup.md")
	}
	if err := run(*rounds, *rev, *which, *out); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

// A build is one way of building the program, and its binary.
type build struct{ name, bin string }

func run(rounds int, rev, which, out string) error {
	tmp, err := os.MkdirTemp("", "startup")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	builds, err := buildAll(tmp, rev)
	if err != nil {
		return err
	}
	sinks := []string{"file", "pipe", "null"}
	cpu := make(map[string]map[string][]time.Duration) // sink, build: the rounds' CPU times
	for _, s := range sinks {
		cpu[s] = make(map[string][]time.Duration)
	}
	for r := range rounds {
		for _, s := range sinks {
			for _, b := range builds {
				d, err := once(b.bin, which, s, tmp)
				if err != nil {
					return fmt.Errorf("%s to %s: %v", b.name, s, err)
				}
				cpu[s][b.name] = append(cpu[s][b.name], d)
			}
		}
		if (r+1)%50 == 0 {
			fmt.Fprintf(os.Stderr, "startup: round %d of %d\n", r+1, rounds)
		}
	}
	var t strings.Builder
	host, _ := os.Hostname()
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&t, "# What a one-line program's start and exit cost (`bench/startup.sh`)\n\n")
	fmt.Fprintf(&t, "%s, %s (%s, %d CPUs), load at the end %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), host, runtime.GOARCH, runtime.NumCPU(), strings.TrimSpace(string(load)))
	fmt.Fprintf(&t, "`bench/startup.sh -rounds %d -rev %q -case %s`: bench/stdouthooks's %s, CPU time (user + system) of the child; medians of %d interleaved rounds. The ratio is the median of the per-round ratios to the plain build's, with their quartiles.\n\n", rounds, rev, which, which, rounds)
	for _, s := range sinks {
		fmt.Fprintf(&t, "Standard output to %s:\n\n| build | CPU µs | / plain | quartiles |\n|---|---|---|---|\n", map[string]string{"file": "a regular file", "pipe": "a pipe", "null": "/dev/null"}[s])
		plain := cpu[s]["plain"]
		for _, b := range builds {
			ds := cpu[s][b.name]
			ratios := make([]float64, len(ds))
			for i := range ds {
				ratios[i] = float64(ds[i]) / float64(plain[i])
			}
			q1, q2, q3 := quartiles(ratios)
			fmt.Fprintf(&t, "| %s | %.0f | %.3f | %.3f, %.3f |\n", b.name, medianDuration(ds).Seconds()*1e6, q2, q1, q3)
		}
		t.WriteString("\n")
	}
	fmt.Print(t.String())
	return os.WriteFile(out, []byte(t.String()), 0o644)
}

// buildAll builds the program plainly and with -stdout and -files of
// this checkout's stdiobuf and, unless rev is empty, of rev's.
func buildAll(tmp, rev string) ([]build, error) {
	const prog = "./bench/stdouthooks"
	tool := filepath.Join(tmp, "stdiobuf")
	steps := [][]string{
		{"go", "build", "-o", tool, "./cmd/stdiobuf"},
		{"go", "build", "-o", filepath.Join(tmp, "plain"), prog},
		{tool, "build", "-stdout", "-o", filepath.Join(tmp, "stdout"), prog},
		{tool, "build", "-files", "-o", filepath.Join(tmp, "files"), prog},
	}
	builds := []build{{"plain", "plain"}, {"-stdout", "stdout"}, {"-files", "files"}}
	if rev != "" {
		src := filepath.Join(tmp, "rev")
		if err := os.Mkdir(src, 0o755); err != nil {
			return nil, err
		}
		if err := runSh(fmt.Sprintf("git archive %q | tar -x -C %q", rev, src), ""); err != nil {
			return nil, err
		}
		old := filepath.Join(tmp, "stdiobuf-rev")
		if err := runCmd(src, "go", "build", "-o", old, "./cmd/stdiobuf"); err != nil {
			return nil, err
		}
		steps = append(steps,
			[]string{old, "build", "-stdout", "-o", filepath.Join(tmp, "stdout-rev"), prog},
			[]string{old, "build", "-files", "-o", filepath.Join(tmp, "files-rev"), prog})
		builds = append(builds, build{"-stdout of " + rev, "stdout-rev"}, build{"-files of " + rev, "files-rev"})
	}
	for _, s := range steps {
		if err := runCmd("", s[0], s[1:]...); err != nil {
			return nil, err
		}
	}
	for i := range builds {
		builds[i].bin = filepath.Join(tmp, builds[i].bin)
	}
	return builds, nil
}

func runCmd(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
	}
	return nil
}

func runSh(script, dir string) error { return runCmd(dir, "sh", "-c", script) }

// once runs `bin which` with standard output to sink and returns its
// CPU time.
func once(bin, which, sink, tmp string) (time.Duration, error) {
	cmd := exec.Command(bin, which)
	var w *os.File         // a pipe's write end, closed once the child has run
	var drained chan error // a pipe's reader's end
	switch sink {
	case "file":
		f, err := os.Create(filepath.Join(tmp, "out"))
		if err != nil {
			return 0, err
		}
		defer f.Close()
		cmd.Stdout = f
	case "pipe":
		r, pw, err := os.Pipe()
		if err != nil {
			return 0, err
		}
		defer r.Close()
		w, cmd.Stdout = pw, pw
		drained = make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, r)
			drained <- err
		}()
	case "null":
		f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		cmd.Stdout = f
	}
	err := cmd.Run()
	if w != nil {
		w.Close()
		if derr := <-drained; derr != nil && err == nil {
			err = derr
		}
	}
	if err != nil {
		return 0, err
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// quartiles returns the first quartile, the median and the third
// quartile of xs, by rank.
func quartiles(xs []float64) (q1, q2, q3 float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	return s[n/4], s[n/2], s[3*n/4]
}
