//go:build linux

// Command pathops measures issue 30's programs: ordinary Go programs
// that mix a record of output per file with other file work (a walker
// printing to a file and to a pipe, a stat per record into a report, a
// grep -r into a report, a generator writing many files while it logs,
// a read-transform-write loop, a record reader that logs each record,
// many small files, many files open at once, a block reader of a pipe),
// built plainly, with bufio added by hand (bufio), with `stdiobuf build
// -stdout` and `-files`, and their twins in C on glibc stdio where one
// is natural (c).
//
// It makes its data in a temporary folder, builds every variant (each
// Go variant linked -layouts times, each time with its functions in
// another random order), and runs rounds of every (program, variant)
// pair, the variants' order rotated by one each round and each round
// taking the next layout, taking the CPU time (user + system, from
// the child's rusage) and the wall time of each run. One more run of
// each pair under strace -f -c counts its system calls: the write family
// (write, pwrite64, writev) and every call on files. It prints a table
// and writes runs.tsv and results.md into -out: medians, the ratios of
// -files's CPU to the lower of plain's and -stdout's, and issue 30's
// targets: -files makes at most twice C's write calls (or twice one per
// 4 KiB written, where there is no C twin), no more calls on files than
// -stdout, and takes at most 1.05 times the lower CPU of plain and
// -stdout, and at most 1.05 times the CPU of the program with bufio
// added by hand (plain where it has nothing to buffer).
//
//	bench/pathops.sh [-rounds R] [-seconds S] [-files N] [-records N] [-layouts L] [-xfs] [-rundir DIR] [-out DIR]
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// config is what the flags ask for.
type config struct {
	rounds, files, records int
	layouts                int // links of each Go variant, each with its own function order; 1: the linker's own order
	xfs                    bool
	out                    string
	programs               string  // the programs to run, by name, comma-separated; "" for all
	seconds                float64 // CPU seconds of rounds a short program's variant gets, in up to 5 x rounds
	runDir                 string  // where each run's folder (the files a program writes) is made; "" for the temporary folder
}

func main() {
	var cfg config
	flag.IntVar(&cfg.rounds, "rounds", 5, "interleaved rounds of every (program, variant) pair")
	flag.IntVar(&cfg.files, "files", 10000, "files of the tree, the stat list and the generator's input (manyopen opens 15,000 and smallfiles writes 2000 whatever it says)")
	flag.IntVar(&cfg.records, "records", 100000, "records of transform and recreader")
	flag.IntVar(&cfg.layouts, "layouts", 3, "link each Go variant this many times, each with its functions in its own random order (-ldflags=-randlayout), and take them in turn round by round: where layout alone moves a program's time by a few percent, no one link's luck decides a ratio; 1 links once, in the linker's own order")
	flag.BoolVar(&cfg.xfs, "xfs", true, "also run recreader on XFS with 128 KiB blocks (needs root, mkfs.xfs, a loop device)")
	flag.StringVar(&cfg.programs, "programs", "", "only these programs, comma-separated (their names in the table)")
	flag.StringVar(&cfg.out, "out", "", "folder for runs.tsv and results.md (default bench/results/DATE-pathops)")
	flag.Float64Var(&cfg.seconds, "seconds", 3, "a program whose variant's rounds take fewer CPU seconds than this gets more rounds, up to 5 x -rounds: the shortest programs vary the most")
	flag.StringVar(&cfg.runDir, "rundir", "", "make the folders the programs write in under this one (a tmpfs such as /dev/shm takes the file system's own noise out of the CPU times); default the temporary folder")
	flag.Parse()
	if cfg.rounds < 1 || cfg.files < 10 || cfg.records < 1 || cfg.seconds < 0 || cfg.layouts < 1 {
		fmt.Fprintln(os.Stderr, "pathops: -rounds must be at least 1, -files at least 10, -records at least 1, -seconds at least 0, -layouts at least 1")
		os.Exit(2)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join("bench", "results", time.Now().Format("2006-01-02")+"-pathops")
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "pathops:", err)
		os.Exit(1)
	}
}

// variants are every variant, in the order of the table: the Go program
// built plainly, run with -bufio, built with -stdout and -files, and the
// C twin.
var variants = []string{"plain", "bufio", "stdout", "files", "c"}

// A program is one row of the table.
type program struct {
	name string
	// args are the program's arguments after its name, made afresh for
	// each run in a folder of its own (run); stdin feeds standard input,
	// toFile sends standard output and standard error to files (else
	// standard output to a pipe that is drained, standard error to a
	// file).
	args   func(run string) []string
	stdin  func() io.Reader
	toPipe bool
	// hasC and hasBufio say whether the C twin and the bufio variant exist.
	hasC, hasBufio bool
	// refWrites is, where there is no C twin, the writes one per 4 KiB
	// (and one per file written whole) would make, from the run's folder.
	refWrites func(run string) int
}

func run(cfg config) error {
	for _, tool := range []string{"go", "cc", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("needs %s on PATH", tool)
		}
	}
	tmp, err := os.MkdirTemp("", "pathops-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(os.Stderr, "pathops: building in", tmp)
	bins, err := build(tmp, cfg.layouts)
	if err != nil {
		return err
	}
	data, err := makeData(tmp, cfg)
	if err != nil {
		return err
	}
	defer data.cleanup()
	runs := tmp
	if cfg.runDir != "" {
		if runs, err = os.MkdirTemp(cfg.runDir, "pathops-runs-"); err != nil {
			return fmt.Errorf("-rundir: %v", err)
		}
		defer os.RemoveAll(runs)
	}
	progs := programsFor(data, cfg)
	if cfg.programs != "" {
		want := strings.Split(cfg.programs, ",")
		progs = slices.DeleteFunc(progs, func(p program) bool { return !slices.Contains(want, p.name) })
		if len(progs) == 0 {
			return fmt.Errorf("-programs %q names no program", cfg.programs)
		}
	}
	cpu := map[[2]string][]float64{}
	wall := map[[2]string][]float64{}
	var tsv bytes.Buffer
	tsv.WriteString("round\tprogram\tvariant\tlayout\tcpu_ms\twall_ms\n")
	rounds := map[string]int{}
	for _, p := range progs {
		rounds[p.name] = cfg.rounds
	}
	last := cfg.rounds
	for r := 0; r < last; r++ {
		fmt.Fprintf(os.Stderr, "pathops: round %d of %d\n", r+1, last)
		layout := r % cfg.layouts
		for _, p := range progs {
			if r >= rounds[p.name] {
				continue
			}
			vs := p.variants()
			for i := range vs {
				v := vs[(i+r)%len(vs)]
				c, w, err := runOnce(runs, bins, p, v, layout)
				if err != nil {
					return err
				}
				k := [2]string{p.name, v}
				cpu[k] = append(cpu[k], c)
				wall[k] = append(wall[k], w)
				fmt.Fprintf(&tsv, "%d\t%s\t%s\t%d\t%.2f\t%.2f\n", r, p.name, v, layout, c, w)
			}
			if r == 0 {
				rounds[p.name] = roundsFor(cfg, p, cpu)
				last = max(last, rounds[p.name])
			}
		}
	}
	fmt.Fprintln(os.Stderr, "pathops: counting system calls under strace")
	calls := map[[2]string]map[string]int{}
	refs := map[string]int{}
	for _, p := range progs {
		for _, v := range p.variants() {
			var ms []map[string]int
			var ref int
			for range straceRuns(p) {
				m, r, err := straceOnce(tmp, runs, bins, p, v)
				if err != nil {
					return err
				}
				ms, ref = append(ms, m), r
			}
			calls[[2]string{p.name, v}] = fewestCalls(ms)
			if v == "files" && p.refWrites != nil {
				refs[p.name] = ref
			}
		}
	}
	md := report(cfg, progs, rounds, cpu, wall, calls, refs)
	fmt.Print(md)
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cfg.out, "runs.tsv"), tsv.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(cfg.out, "results.md"), []byte(md), 0o644)
}

// layoutsText says how the Go variants were linked.
func layoutsText(n int) string {
	if n == 1 {
		return "each Go variant linked once, in the linker's own function order"
	}
	return fmt.Sprintf("each Go variant linked %d times, each with its functions in its own random order (-ldflags=-randlayout=1..%d), round r running link r mod %d", n, n, n)
}

// roundsFor is how many rounds p gets, from its first round's CPU
// times (cpu): cfg.rounds, or more where its slowest variant's rounds
// would take fewer than cfg.seconds of CPU, up to five times as many.
func roundsFor(cfg config, p program, cpu map[[2]string][]float64) int {
	slowest := 0.0
	for _, v := range p.variants() {
		if c := cpu[[2]string{p.name, v}]; len(c) > 0 {
			slowest = max(slowest, c[0])
		}
	}
	if slowest <= 0 {
		return cfg.rounds
	}
	n := int(math.Ceil(cfg.seconds * 1000 / slowest))
	return min(max(n, cfg.rounds), 5*cfg.rounds)
}

// variants returns the variants p runs in.
func (p program) variants() []string {
	var vs []string
	for _, v := range variants {
		if v == "c" && !p.hasC || v == "bufio" && !p.hasBufio {
			continue
		}
		vs = append(vs, v)
	}
	return vs
}

// build builds the Go program in each way, linked layouts times (goBin),
// and the C twins; it returns the binaries by goBin's key and by
// "c-NAME" for each twin.
func build(tmp string, layouts int) (map[string]string, error) {
	cs, err := filepath.Glob("bench/pathops/c/*.c")
	if err != nil || len(cs) == 0 {
		return nil, fmt.Errorf("no C twins in bench/pathops/c (run from the module's root): %v", err)
	}
	bins, steps := buildSteps(tmp, layouts, cs)
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	return bins, nil
}

// buildSteps returns build's binaries and the commands that make them:
// stdiobuf, then each Go variant linked layouts times (with more than
// one, each link with its own -randlayout seed; only the link differs,
// the compiled packages come from the build cache), then the C twins cs.
func buildSteps(tmp string, layouts int, cs []string) (map[string]string, [][]string) {
	tool := filepath.Join(tmp, "stdiobuf")
	bins := map[string]string{}
	steps := [][]string{{"go", "build", "-o", tool, "./cmd/stdiobuf"}}
	for _, b := range []struct{ name, cmd string }{
		{"plain", "go build"},
		{"stdout", tool + " build -stdout"},
		{"files", tool + " build -files"},
	} {
		for l := range layouts {
			key := goBin(b.name, l)
			bins[key] = filepath.Join(tmp, "prog-"+b.name+"-"+strconv.Itoa(l))
			step := strings.Fields(b.cmd)
			if layouts > 1 {
				step = append(step, "-ldflags=-randlayout="+strconv.Itoa(l+1))
			}
			steps = append(steps, append(step, "-o", bins[key], "./bench/pathops/prog"))
		}
	}
	for _, c := range cs {
		name := "c-" + strings.TrimSuffix(filepath.Base(c), ".c")
		bins[name] = filepath.Join(tmp, name)
		steps = append(steps, []string{"cc", "-O2", "-o", bins[name], c})
	}
	return bins, steps
}

// goBin is the key of build's binary of Go variant v (plain, stdout,
// files) in layout l.
func goBin(v string, l int) string { return v + "/" + strconv.Itoa(l) }

// data is what the programs read.
type data struct {
	tree, list, src, nums, recs, xfsRecs string
	cleanup                              func()
}

// makeData writes the tree of small files (a hundred to a folder), the
// list of their names, the generator's input, the numbers and the
// records, and mounts XFS for the records where it can.
func makeData(tmp string, cfg config) (*data, error) {
	d := &data{tree: filepath.Join(tmp, "tree"), list: filepath.Join(tmp, "list"), src: filepath.Join(tmp, "src"),
		nums: filepath.Join(tmp, "nums"), recs: filepath.Join(tmp, "recs"), cleanup: func() {}}
	var list strings.Builder
	for i := 0; i < cfg.files; i++ {
		dir := filepath.Join(d.tree, fmt.Sprintf("d%03d", i/100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		name := filepath.Join(dir, "f"+strconv.Itoa(i))
		if err := os.WriteFile(name, []byte(fmt.Sprintf("file %d\nline two of %d\n", i, i*7)), 0o644); err != nil {
			return nil, err
		}
		list.WriteString(name + "\n")
	}
	if err := os.WriteFile(d.list, []byte(list.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(d.src, 0o755); err != nil {
		return nil, err
	}
	for i := 0; i < cfg.files/5; i++ {
		if err := os.WriteFile(filepath.Join(d.src, fmt.Sprintf("page%05d.txt", i)), []byte(strings.Repeat(fmt.Sprintf("page %d, a line of text\n", i), 4)), 0o644); err != nil {
			return nil, err
		}
	}
	var nums strings.Builder
	recs := make([]byte, 0, 16*cfg.records)
	for i := 0; i < cfg.records; i++ {
		nums.WriteString(strconv.Itoa(i*37%100003) + "\n")
		recs = binary.LittleEndian.AppendUint64(recs, uint64(i))
		recs = binary.LittleEndian.AppendUint64(recs, uint64(i)*uint64(i))
	}
	if err := os.WriteFile(d.nums, []byte(nums.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(d.recs, recs, 0o644); err != nil {
		return nil, err
	}
	if cfg.xfs {
		d.xfsRecs, d.cleanup = mountXFS(tmp, recs)
	}
	return d, nil
}

// mountXFS mounts an XFS file system with st_blksize 131072 and writes
// the records there; it says why and returns "" where it cannot.
func mountXFS(tmp string, recs []byte) (string, func()) {
	img, dir := filepath.Join(tmp, "xfs.img"), filepath.Join(tmp, "xfs")
	steps := [][]string{{"truncate", "-s", "320M", img}, {"mkfs.xfs", "-q", img}, {"mkdir", "-p", dir},
		{"mount", "-o", "loop,largeio,allocsize=128k", img, dir}}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "pathops: recreader on XFS left out: %s: %v %s\n", strings.Join(s, " "), err, bytes.TrimSpace(out))
			return "", func() {}
		}
	}
	umount := func() { exec.Command("umount", dir).Run() }
	path := filepath.Join(dir, "recs")
	if err := os.WriteFile(path, recs, 0o644); err != nil {
		umount()
		fmt.Fprintln(os.Stderr, "pathops: recreader on XFS left out:", err)
		return "", func() {}
	}
	return path, umount
}

// programsFor returns the table's rows over d.
func programsFor(d *data, cfg config) []program {
	nums := func() io.Reader { return bytes.NewReader(bytes.Repeat([]byte("a line of a pipe's input\n"), 800000)) }
	ps := []program{
		{name: "walker to a file", args: func(string) []string { return []string{"walker", d.tree} }, hasC: true, hasBufio: true},
		{name: "walker to a pipe", args: func(string) []string { return []string{"walker", d.tree} }, toPipe: true, hasC: true, hasBufio: true},
		{name: "statreport", args: func(run string) []string { return []string{"statreport", d.list, filepath.Join(run, "report")} }, hasC: true, hasBufio: true},
		{name: "grepr", args: func(run string) []string { return []string{"grepr", d.tree, "77", filepath.Join(run, "report")} }, hasC: true, hasBufio: true},
		{name: "generator", args: func(run string) []string {
			return []string{"generator", d.src, run, filepath.Join(run, "log")}
		}, hasBufio: true, refWrites: func(run string) int {
			ents, _ := os.ReadDir(run)
			fi, _ := os.Stat(filepath.Join(run, "log"))
			return len(ents) - 1 + int((fi.Size()+4095)/4096)
		}},
		{name: "transform", args: func(run string) []string { return []string{"transform", d.nums, filepath.Join(run, "out")} }, hasC: true, hasBufio: true},
		{name: "recreader", args: func(string) []string { return []string{"recreader", d.recs} }, hasC: true, hasBufio: true},
		{name: "smallfiles", args: func(run string) []string { return []string{"smallfiles", run, "2000"} }, hasC: true},
		{name: "manyopen", args: func(run string) []string { return []string{"manyopen", run, "15000"} }, hasC: true, hasBufio: true},
		{name: "pipeblocks", args: func(string) []string { return []string{"pipeblocks"} }, stdin: nums, hasC: true},
	}
	if d.xfsRecs != "" {
		ps = append(ps, program{name: "recreader (XFS 128k)", args: func(string) []string { return []string{"recreader", d.xfsRecs} }, hasC: true, hasBufio: true})
	}
	return ps
}

// command returns the command that runs p in variant v, a Go variant's
// binary in layout l, in a new folder under runs.
func command(runs string, bins map[string]string, p program, v string, l int) (*exec.Cmd, string, error) {
	run, err := os.MkdirTemp(runs, "run-")
	if err != nil {
		return nil, "", err
	}
	args := p.args(run)
	var argv []string
	switch v {
	case "c":
		argv = append([]string{bins["c-"+args[0]]}, args...)
	case "bufio":
		argv = append([]string{bins[goBin("plain", l)], "-bufio"}, args...)
	default:
		argv = append([]string{bins[goBin(v, l)]}, args...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if p.stdin != nil {
		cmd.Stdin = p.stdin()
	}
	stderr, err := os.Create(filepath.Join(run, "stderr"))
	if err != nil {
		return nil, "", err
	}
	cmd.Stderr = stderr
	if p.toPipe {
		cmd.Stdout = io.Discard
	} else {
		out, err := os.Create(filepath.Join(run, "stdout"))
		if err != nil {
			return nil, "", err
		}
		cmd.Stdout = out
	}
	cmd.Env = os.Environ()
	return cmd, run, nil
}

// runOnce runs p in v, in layout l, and returns its CPU and wall time in
// milliseconds.
func runOnce(runs string, bins map[string]string, p program, v string, l int) (cpu, wall float64, err error) {
	cmd, run, err := command(runs, bins, p, v, l)
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(run)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b, _ := os.ReadFile(filepath.Join(run, "stderr"))
		return 0, 0, fmt.Errorf("%s (%s): %v\n%s", p.name, v, err, lastLines(b))
	}
	wall = float64(time.Since(start).Microseconds()) / 1000
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
	return cpu, wall, nil
}

// lastLines is the end of a program's standard error.
func lastLines(b []byte) []byte {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return b
}

// fileCalls are the system calls on files that the totals count; the
// runtime's own (futex, nanosleep, its signals, and pread64 as it reads
// its CPU limit now and then) vary from run to run.
var fileCalls = []string{"read", "write", "pwrite64", "readv", "writev", "openat", "close",
	"fstat", "newfstatat", "statx", "lstat", "stat", "fcntl", "fstatfs", "statfs", "lseek", "getdents64",
	"ftruncate", "tee", "copy_file_range", "sendfile", "splice"}

var straceLine = regexp.MustCompile(`(?m)^\s*(\w+)\s+(\d+)\s*$`)

// straceOnce runs p in v (the first layout: calls do not depend on it)
// under strace -f -c, its run's folder made under runs and strace's log
// in tmp, and returns the count of each call, and p's reference writes
// where it has refWrites.
func straceOnce(tmp, runs string, bins map[string]string, p program, v string) (map[string]int, int, error) {
	cmd, run, err := command(runs, bins, p, v, 0)
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(run)
	log := filepath.Join(tmp, "strace.log")
	cmd.Args = append([]string{"strace", "-f", "-c", "-U", "name,calls", "-o", log}, cmd.Args...)
	cmd.Env = append(cmd.Environ(), "STDIOBUF_MAXDELAY=none")
	cmd.Path, err = exec.LookPath("strace")
	if err != nil {
		return nil, 0, err
	}
	if err := cmd.Run(); err != nil {
		b, _ := os.ReadFile(filepath.Join(run, "stderr"))
		return nil, 0, fmt.Errorf("strace %s (%s): %v\n%s", p.name, v, err, lastLines(b))
	}
	b, err := os.ReadFile(log)
	if err != nil {
		return nil, 0, err
	}
	m := parseCounts(string(b))
	ref := 0
	if p.refWrites != nil {
		ref = p.refWrites(run)
	}
	return m, ref, nil
}

// straceRuns is how many runs under strace count p's calls: three for a
// program that reads a pipe, whose read(2) calls depend on how full the
// writer keeps the pipe (a short read when it lags), one for the rest.
func straceRuns(p program) int {
	if p.stdin != nil {
		return 3
	}
	return 1
}

// fewestCalls is the counts of the run of ms with the fewest calls on
// files: a program's own, with the least of a pipe writer's lag.
func fewestCalls(ms []map[string]int) map[string]int {
	var best map[string]int
	for _, m := range ms {
		if best == nil || total(m) < total(best) {
			best = m
		}
	}
	return best
}

// parseCounts reads the calls of each system call from what
// strace -c -U name,calls writes, leaving out the total line.
func parseCounts(text string) map[string]int {
	m := map[string]int{}
	for _, s := range straceLine.FindAllStringSubmatch(text, -1) {
		if s[1] != "total" {
			m[s[1]], _ = strconv.Atoi(s[2])
		}
	}
	return m
}

// writes is the write family's calls in m; total, the calls on files.
func writes(m map[string]int) int { return m["write"] + m["pwrite64"] + m["writev"] }

func total(m map[string]int) int {
	n := 0
	for _, c := range fileCalls {
		n += m[c]
	}
	return n
}

// median is the median of xs.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// roundRatios is a's CPU over b's in each round where b's is not 0:
// their median is steadier than the ratio of medians where a machine's
// rounds fall in bands (a VM's neighbours), since both runs of a round
// share the band.
func roundRatios(a, b []float64) []float64 {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if b[i] > 0 {
			rs = append(rs, a[i]/b[i])
		}
	}
	return rs
}

// medianInterval is a 95% confidence interval of the median that xs are
// drawn around, assuming nothing of their distribution: the values of
// ranks k and n+1-k, k the largest rank with a chance of at most 2.5%
// that fewer than k of n draws fall below the median (binomial, p =
// 1/2); with fewer than 6 values, which no such k fits, their range.
func medianInterval(xs []float64) (lo, hi float64) {
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0, 0
	}
	// below is the chance that at most j of n draws fall below the
	// median, for j = 0, 1, ...
	k, below, term := 0, 0.0, math.Pow(0.5, float64(n))
	for j := 0; j < n; j++ {
		below += term
		if below > 0.025 {
			break
		}
		k = j + 1
		term = term * float64(n-j) / float64(j+1)
	}
	if k == 0 {
		return s[0], s[n-1]
	}
	return s[k-1], s[n-k]
}

// target judges a ratio's target from the per-round ratios rs: met
// where their median is at most limit; missed where the median's whole
// interval (medianInterval) is above it; where the interval holds it,
// the runs cannot tell, and more rounds or a quieter machine must.
func target(rs []float64, limit float64) string {
	if median(rs) <= limit {
		return "met"
	}
	if lo, _ := medianInterval(rs); lo > limit {
		return "**missed**"
	}
	return "**not shown** (" + strconv.FormatFloat(limit, 'f', -1, 64) + " in the interval)"
}

// report formats the results.
func report(cfg config, progs []program, rounds map[string]int, cpu, wall map[[2]string][]float64, calls map[[2]string]map[string]int, refs map[string]int) string {
	var b strings.Builder
	host, _ := os.Hostname()
	var un syscall.Utsname
	syscall.Uname(&un)
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&b, "# bench/pathops: -files against plain, -stdout, bufio by hand and C\n\n")
	fmt.Fprintf(&b, "%s, %s (%s), %s, load %s", time.Now().UTC().Format("2006-01-02 15:04 MST"), host, utsString(un.Release[:]), cpuModel(), strings.TrimSpace(string(load)))
	where := "the temporary folder's file system"
	if cfg.runDir != "" {
		where = cfg.runDir
	}
	fmt.Fprintf(&b, "\n\n`bench/pathops.sh -rounds %d -seconds %g -files %d -records %d -layouts %d`%s: medians of interleaved rounds (at least %d; a program whose variant's rounds take under %g CPU seconds gets more, up to %d; %s); the programs write in %s; calls from one run under `strace -f -c`, the fewest of three for a program that reads a pipe (a short read when the writer lags is one read more).\n\n",
		cfg.rounds, cfg.seconds, cfg.files, cfg.records, cfg.layouts, runDirFlag(cfg), cfg.rounds, cfg.seconds, 5*cfg.rounds, layoutsText(cfg.layouts), where)
	b.WriteString("| program | variant | rounds | CPU ms | wall ms | write calls | calls on files |\n|---|---|---|---|---|---|---|\n")
	for _, p := range progs {
		for _, v := range p.variants() {
			k := [2]string{p.name, v}
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f | %.1f | %d | %d |\n", p.name, v, len(cpu[k]), median(cpu[k]), median(wall[k]), writes(calls[k]), total(calls[k]))
		}
	}
	b.WriteString("\nTargets (issue 30): -files's write calls at most 2x C's (no C twin: one per file written whole and per 4 KiB of the log); its calls on files at most -stdout's; its CPU at most 1.05x the lower of plain's and -stdout's, and at most 1.05x the same program's with bufio added by hand (what a careful Go programmer gets; plain where the program has nothing a bufio could buffer, as os.WriteFile of each small file). The runs under strace are slower, and the bound (STDIOBUF_MAXDELAY, 50 ms) would write out buffers that waited that long, as many times as the slowdown and the machine's load make it; they run with STDIOBUF_MAXDELAY=none (glibc's rule), so that the calls are the program's alone.\n\n")
	b.WriteString("The CPU columns give the ratio of medians, after the slash the median of the per-round ratios (the reference is the build of the lower median), and in brackets that median's 95% interval (distribution-free, from the ranks of the per-round ratios). A target is met where the median of the per-round ratios is within it, missed where the whole interval is beyond it, and not shown where the interval holds the limit: those runs cannot tell.\n\n")
	b.WriteString("| program | files writes / reference | writes target | files calls / stdout calls | calls target | files CPU / min(plain, stdout) | CPU target | files CPU / by hand | target by hand |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range progs {
		f, s := calls[[2]string{p.name, "files"}], calls[[2]string{p.name, "stdout"}]
		ref := refs[p.name]
		if p.hasC {
			ref = writes(calls[[2]string{p.name, "c"}])
		}
		fc := cpu[[2]string{p.name, "files"}]
		low := "plain"
		if median(cpu[[2]string{p.name, "stdout"}]) < median(cpu[[2]string{p.name, "plain"}]) {
			low = "stdout"
		}
		ratio := median(fc) / median(cpu[[2]string{p.name, low}])
		perRound := roundRatios(fc, cpu[[2]string{p.name, low}])
		hand := "plain"
		if p.hasBufio {
			hand = "bufio"
		}
		handRatio := median(fc) / median(cpu[[2]string{p.name, hand}])
		handRound := roundRatios(fc, cpu[[2]string{p.name, hand}])
		fmt.Fprintf(&b, "| %s | %d / %d | %s | %d / %d | %s | %.3f / %s | %s | %.3f / %s (%s) | %s |\n", p.name,
			writes(f), ref, pass(writes(f) <= 2*max(ref, 1)), total(f), total(s), pass(total(f) <= total(s)),
			ratio, withInterval(perRound), target(perRound, 1.05), handRatio, withInterval(handRound), hand, target(handRound, 1.05))
	}
	return b.String()
}

// withInterval is the median of rs and its interval.
func withInterval(rs []float64) string {
	lo, hi := medianInterval(rs)
	return fmt.Sprintf("%.3f [%.3f, %.3f]", median(rs), lo, hi)
}

// runDirFlag is -rundir as the command line gave it, or "".
func runDirFlag(cfg config) string {
	if cfg.runDir == "" {
		return ""
	}
	return " with `-rundir " + cfg.runDir + "`"
}

func pass(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

// utsString is a NUL-terminated utsname field.
func utsString(f []int8) string {
	var s []byte
	for _, c := range f {
		if c == 0 {
			break
		}
		s = append(s, byte(c))
	}
	return string(s)
}

// cpuModel is /proc/cpuinfo's model name and the count of processors.
func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	model, n := "", 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			n++
			if i := strings.Index(l, ":"); i >= 0 {
				model = strings.TrimSpace(l[i+1:])
			}
		}
	}
	return fmt.Sprintf("%d x %s", n, model)
}
