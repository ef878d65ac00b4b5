//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/procinfo"
)

// parseStraceCounts returns the calls per system call of the table strace
// -c writes (a header, a dashed rule, one line per call, a rule and the
// total), or an error if text holds no such table.
func parseStraceCounts(text string) (map[string]int64, error) {
	counts := map[string]int64{}
	rules := 0
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && strings.HasPrefix(f[0], "---"):
			rules++
			continue
		case rules != 1:
			continue // before the table, its total, or after it
		}
		// % time, seconds, usecs/call, calls, [errors,] syscall
		if len(f) != 5 && len(f) != 6 {
			return nil, fmt.Errorf("strace -c: unexpected line %q", strings.TrimSpace(line))
		}
		n, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("strace -c: calls of line %q: %w", strings.TrimSpace(line), err)
		}
		counts[f[len(f)-1]] += n
	}
	if rules == 0 {
		return nil, fmt.Errorf("strace -c: no table in %q", clip(text))
	}
	return counts, nil
}

// median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cell is the summary of one (idiom, variant) pair.
type cell struct {
	cpu, wall          float64 // medians of the timed runs, seconds
	cpuMin, cpuMax     float64
	runs               int
	records            int64   // records of the timed runs
	calls, callsEmpty  int64   // calls on the strace dataset and on none; -1 if not counted
	straceRecords      int64   // records of the strace dataset
	callsPerRecord     float64 // (calls - callsEmpty) / straceRecords
	hasCalls, hasTimes bool
}

// key names a pair.
type key struct{ idiom, variant string }

// summarize returns the cell of every pair that has runs.
func summarize(runs []runRecord) map[key]*cell {
	cpus := map[key][]float64{}
	walls := map[key][]float64{}
	cells := map[key]*cell{}
	get := func(k key) *cell {
		if cells[k] == nil {
			cells[k] = &cell{calls: -1, callsEmpty: -1}
		}
		return cells[k]
	}
	for _, r := range runs {
		k := key{r.idiom, r.varnt}
		c := get(k)
		if r.round == 0 {
			if r.records == 0 {
				c.callsEmpty = r.calls
			} else {
				c.calls, c.straceRecords = r.calls, r.records
			}
			continue
		}
		c.records = r.records
		cpus[k] = append(cpus[k], (r.user + r.sys).Seconds())
		walls[k] = append(walls[k], r.wall.Seconds())
	}
	for k, c := range cells {
		if c.calls >= 0 && c.callsEmpty >= 0 && c.straceRecords > 0 {
			c.hasCalls = true
			c.callsPerRecord = float64(c.calls-c.callsEmpty) / float64(c.straceRecords)
		}
		if xs := cpus[k]; len(xs) > 0 {
			c.hasTimes = true
			c.runs = len(xs)
			c.cpu, c.wall = median(xs), median(walls[k])
			c.cpuMin, c.cpuMax = slices.Min(xs), slices.Max(xs)
		}
	}
	return cells
}

// ratio formats a/b as "21x" (two significant digits above 10, else
// three), or "–" if either is missing or b is zero.
func ratio(a, b *cell) string {
	if a == nil || b == nil || !a.hasTimes || !b.hasTimes || b.cpu == 0 {
		return "–"
	}
	return times(a.cpu / b.cpu)
}

// times formats a ratio.
func times(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0fx", x)
	case x >= 10:
		return fmt.Sprintf("%.1fx", x)
	default:
		return fmt.Sprintf("%.2fx", x)
	}
}

// perRecord formats calls per record: to two significant digits.
func perRecord(c *cell) string {
	if c == nil || !c.hasCalls {
		return "–"
	}
	x := c.callsPerRecord
	switch {
	case x >= 0.995:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case x <= 0:
		return "0"
	default:
		return strconv.FormatFloat(x, 'g', 2, 64)
	}
}

// writeTSV writes every run, one a line, with a header.
func writeTSV(w io.Writer, runs []runRecord) {
	fmt.Fprintln(w, "kind\tround\tidiom\tvariant\trecords\twall_s\tuser_s\tsys_s\tcpu_s\tcalls")
	for _, r := range runs {
		kind, calls := "timed", ""
		if r.round == 0 {
			kind, calls = "strace", strconv.FormatInt(r.calls, 10)
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%s\n", kind, r.round, r.idiom, r.varnt, r.records,
			r.wall.Seconds(), r.user.Seconds(), r.sys.Seconds(), (r.user + r.sys).Seconds(), calls)
	}
}

// machine is what results.md records of where and how it ran.
type machine struct {
	cpu, kernel, goVersion, cc, fs string
	cores                          int
	started                        time.Time
	load0, load1                   []string
	command                        string
	records, straceRecords, rounds int
}

// machineInfo reads the machine's description; what it cannot read it
// leaves as "?".
func machineInfo(root, work string) machine {
	m := machine{cpu: "?", kernel: "?", goVersion: "?", cc: "?", fs: "?", cores: runtime.NumCPU()}
	if v, ok := procinfo.Field("/proc/cpuinfo", "model name"); ok {
		m.cpu = v
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = strings.TrimSpace(string(b))
	}
	first := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		b, err := cmd.Output()
		if err != nil {
			return "?"
		}
		line, _, _ := strings.Cut(string(b), "\n")
		return strings.TrimSpace(line)
	}
	m.goVersion = first("go", "version")
	m.cc = first("cc", "--version")
	var st syscall.Statfs_t
	var fst syscall.Stat_t
	if syscall.Statfs(work, &st) == nil && syscall.Stat(work, &fst) == nil {
		m.fs = fmt.Sprintf("file system magic %#x, st_blksize %d", st.Type, fst.Blksize)
	}
	return m
}

// loadAverage returns the 1, 5 and 15 minute load averages.
func loadAverage() []string {
	l := procinfo.LoadAverage()
	if len(l) < 3 {
		return []string{"?", "?", "?"}
	}
	return l[:3]
}

// writeMarkdown writes results.md: the matrix in the shape, then
// every pair's figures.
func writeMarkdown(w io.Writer, m machine, variants []variant, ids []idiom, cells map[key]*cell) {
	fmt.Fprintf(w, "# The -files idiom matrix (issue 22)\n\n")
	fmt.Fprintf(w, "- date: %s\n", m.started.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "- machine: %s, %d CPUs, Linux %s; %s; %s\n", m.cpu, m.cores, m.kernel, m.goVersion, m.cc)
	fmt.Fprintf(w, "- data and output files: %s\n", m.fs)
	fmt.Fprintf(w, "- load average (1, 5, 15 min): %s before, %s after\n", strings.Join(m.load0, " "), strings.Join(m.load1, " "))
	fmt.Fprintf(w, "- command: `%s`\n", strings.TrimSpace(m.command))
	if busy := busyLoad(m); busy != "" {
		fmt.Fprintf(w, "- warning: %s\n", busy)
	}
	fmt.Fprintf(w, "- %d interleaved rounds of %d records (the order rotated each round); CPU time is user + system of the program's process, medians; calls per record are read/write-family system calls (%s) under `strace -f -c` on %d records, less those on empty input, over %d; the programs that already buffer run on more records (the column record says how many); issue 22's targets for -files: calls per record at most 2x C's, CPU as in the last column\n\n",
		m.rounds, m.records, straceSet, m.straceRecords, m.straceRecords)

	var others []variant
	has := map[string]bool{}
	for _, v := range variants {
		has[v.name] = true
		if v.name != "c" {
			others = append(others, v)
		}
	}
	fmt.Fprintf(w, "| idiom | calls per record, %s |", strings.Join(variantNamesOf(variants), " / "))
	for _, v := range others {
		fmt.Fprintf(w, " %s CPU / C |", v.name)
	}
	for _, v := range others {
		if v.name != "plain" && has["plain"] {
			fmt.Fprintf(w, " %s CPU / plain |", v.name)
		}
	}
	fmt.Fprintln(w, " -files target, CPU |")
	fmt.Fprint(w, "|---|---|---|")
	for _, v := range others {
		fmt.Fprint(w, "---|")
		if v.name != "plain" && has["plain"] {
			fmt.Fprint(w, "---|")
		}
	}
	fmt.Fprintln(w)
	for _, id := range ids {
		c := cells[key{id.name, "c"}]
		plain := cells[key{id.name, "plain"}]
		var calls []string
		for _, v := range variants {
			calls = append(calls, perRecord(cells[key{id.name, v.name}]))
		}
		fmt.Fprintf(w, "| %s | %s |", id.what, strings.Join(calls, " / "))
		for _, v := range others {
			fmt.Fprintf(w, " %s |", ratio(cells[key{id.name, v.name}], c))
		}
		for _, v := range others {
			if v.name != "plain" && has["plain"] {
				fmt.Fprintf(w, " %s |", ratio(cells[key{id.name, v.name}], plain))
			}
		}
		target := "–"
		if id.target != "" {
			target = "≤ " + id.target
		}
		fmt.Fprintf(w, " %s |\n", target)
	}
	fmt.Fprintf(w, "\n– : no such program (bufio/ has none of the programs that already buffer, c/ no gob; the stdout variant builds only the programs that print).\n\n")

	fmt.Fprintf(w, "## Every pair\n\n")
	fmt.Fprintf(w, "| idiom | variant | record (timed, counted) | CPU ms, median (min–max) | wall ms, median | calls (counted records / none) | calls per record |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|\n")
	for _, id := range ids {
		for _, v := range variants {
			c := cells[key{id.name, v.name}]
			if c == nil {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s (%d, %d) | %.1f (%.1f–%.1f) | %.1f | %d / %d | %s |\n", id.name, v.name, id.unit,
				c.records, c.straceRecords, c.cpu*1e3, c.cpuMin*1e3, c.cpuMax*1e3, c.wall*1e3, c.calls, c.callsEmpty, perRecord(c))
		}
	}
}

// busyLoad returns a sentence saying the load average was above the CPU
// count before or after the run, or "" if it was not.
func busyLoad(m machine) string {
	high := 0.0
	for _, l := range [][]string{m.load0, m.load1} {
		if len(l) == 0 {
			continue
		}
		if x, err := strconv.ParseFloat(l[0], 64); err == nil {
			high = max(high, x)
		}
	}
	if high <= float64(m.cores) {
		return ""
	}
	return fmt.Sprintf("the 1-minute load average reached %.2f on %d CPUs: other work shared the machine, which disturbs wall time most and CPU time less (a system call costs more when caches are shared)", high, m.cores)
}

// variantNamesOf returns the variants' names.
func variantNamesOf(vs []variant) []string {
	var names []string
	for _, v := range vs {
		names = append(names, v.name)
	}
	return names
}
