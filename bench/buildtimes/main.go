// Command buildtimes measures what `stdiobuf build` costs in build time
// on a large program, a tool as internal/shimtools pins it (gojq by
// default): the wall time of a first and a second build with go build,
// stdiobuf build and stdiobuf build -stdout, in that order, each round on
// an empty go build cache and an empty overlay cache. So the first go
// build compiles everything, the first stdiobuf build is a user's first
// after plain builds (it makes the overlay, compiling bufio once for its
// check, and recompiles what imports bufio), and the first -stdout build
// recompiles what imports os. It prints the medians over the rounds and
// every round's figures as Markdown.
//
// Usage, from the repository's root:
//
//	go run ./bench/buildtimes [-runs 3] [-tool gojq] > bench/results/DATE-build-times.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/procinfo"
	"github.com/stdiobuf/stdiobuf/internal/shimtools"
)

// builds are the builds of a round, in order, each made twice.
var builds = []struct {
	name string
	argv func(goCmd, stdiobuf string) []string
}{
	{"go build", func(goCmd, _ string) []string { return []string{goCmd, "build"} }},
	{"stdiobuf build", func(_, sb string) []string { return []string{sb, "build"} }},
	{"stdiobuf build -stdout", func(_, sb string) []string { return []string{sb, "build", "-stdout"} }},
}

func main() {
	runs := flag.Int("runs", 3, "rounds, each on empty caches")
	name := flag.String("tool", "gojq", "the tool of internal/shimtools to build")
	flag.Parse()
	if err := run(context.Background(), *runs, *name); err != nil {
		fmt.Fprintln(os.Stderr, "buildtimes:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, runs int, name string) error {
	i := slices.IndexFunc(shimtools.Tools(), func(t shimtools.Tool) bool { return t.Name == name })
	if i < 0 || runs < 1 {
		return fmt.Errorf("no tool %q, or -runs below 1", name)
	}
	tool := shimtools.Tools()[i]
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "buildtimes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sb, err := shimtools.BuildStdiobuf(ctx, goCmd, dir)
	if err != nil {
		return err
	}
	ws := &shimtools.Workspace{Go: goCmd, Stdiobuf: sb, Dir: dir}
	src, err := ws.Source(ctx, tool)
	if err != nil {
		return err
	}
	download := exec.CommandContext(ctx, goCmd, "mod", "download")
	download.Dir, download.Env = src, shimtools.Env()
	if out, err := download.CombinedOutput(); err != nil { // not timed: the proxy's time is no build's
		return fmt.Errorf("go mod download in %s: %v\n%s", src, err, out)
	}
	start, loadStart := time.Now(), loadAverage()
	// times[b][0] and [1]: the first and second build of builds[b], one
	// figure a round.
	times := make([][2][]time.Duration, len(builds))
	for r := range runs {
		caches := filepath.Join(dir, fmt.Sprintf("round%d", r))
		env := append(shimtools.Env(), "GOCACHE="+filepath.Join(caches, "go-build"), "XDG_CACHE_HOME="+caches)
		for b, build := range builds {
			for k := range 2 {
				argv := append(build.argv(goCmd, sb), "-o", filepath.Join(dir, "bin"), tool.Main)
				cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
				cmd.Dir, cmd.Env = src, env
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					return fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
				}
				times[b][k] = append(times[b][k], time.Since(t0))
				fmt.Fprintf(os.Stderr, "round %d: %s (%s): %.1f s\n", r+1, build.name, []string{"first", "second"}[k], time.Since(t0).Seconds())
			}
		}
		os.RemoveAll(caches)
	}
	fmt.Printf("# Build times: %s %s under go build and stdiobuf build\n\n", tool.ID(), tool.Main)
	fmt.Printf("Measured by `go run ./bench/buildtimes -runs %d -tool %s` on %s, in %s.\n\n",
		runs, name, start.UTC().Format("2006-01-02 15:04 UTC"), time.Since(start).Round(time.Second))
	fmt.Printf("- machine: %d CPUs, %s; %s\n", runtime.NumCPU(), procField("/proc/cpuinfo", "model name"), runtime.Version())
	fmt.Printf("- load average (1, 5, 15 min): %s at the start, %s at the end\n", loadStart, loadAverage())
	fmt.Printf("- each round on an empty go build cache (GOCACHE) and overlay cache; the builds in the order of the table, each twice\n\n")
	fmt.Printf("| build | first (median) | second (median) | first, every round | second, every round |\n|---|---|---|---|---|\n")
	for b, build := range builds {
		fmt.Printf("| %s | %s | %s | %s | %s |\n", build.name, seconds(median(times[b][0])), seconds(median(times[b][1])), list(times[b][0]), list(times[b][1]))
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

func list(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, seconds(d))
	}
	return strings.Join(s, ", ")
}

func loadAverage() string {
	if load := procinfo.LoadAverage(); len(load) >= 3 {
		return strings.Join(load[:3], " ")
	}
	return "unknown"
}

func procField(path, name string) string {
	if v, ok := procinfo.Field(path, name); ok {
		return v
	}
	return "unknown"
}
