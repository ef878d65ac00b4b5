//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// writeMarkdown writes results.md: the setting, a summary across file
// systems, a table per file system, the sweep, and the notes.
func (r *results) writeMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	p("# headbench: `getdelim --loop -n %d < input > /dev/null`\n\n", r.Input.Lines)
	r.writeSetting(bw)

	p("\n## Headline\n\n")
	r.writeHeadline(bw)
	for _, w := range r.Warnings {
		p("\n**Warning:** %s.\n", mdEscape(w))
	}

	if r.hasKind(kindPolicy) {
		p("\n## The world's buffering rules\n\n")
		r.writeRules(bw)
	}

	p("\n## File systems\n\n")
	p("| fs | what | st_blksize of the input |\n|---|---|---|\n")
	for _, t := range r.Targets {
		what := t.FSType
		if t.Mount != "" {
			what += ": " + t.Mount
		}
		p("| %s | %s | %d |\n", t.Name, mdEscape(what), t.Blksize)
	}
	p("\nThe output is %s (st_blksize %d) for every figure.\n", r.Output, r.OutputBlksize)

	p("\n## Summary: median wall time (speed against bufsiz on the same fs)\n\n")
	r.writeSummary(bw)

	for _, t := range r.Targets {
		p("\n## fs=%s: %s\n\n", t.Name, mdEscape(t.describe()))
		r.writeTargetTable(bw, t.Name)
	}

	if r.hasKind(kindSweep) {
		p("\n## Sweep: `getdelim --loop --policy BYTES`, the same size for both streams\n\n")
		p("Median MB/s, the median wall time, and the median CPU time (user + system), which a busy machine disturbs less.\n\n")
		r.writeSweepTable(bw)
	}

	p("\n## Commands\n\n| figure | command |\n|---|---|\n")
	seen := map[string]bool{}
	for _, f := range r.Figures {
		if !seen[f.Key] {
			seen[f.Key] = true
			p("| %s | `%s` |\n", f.Key, f.Command)
		}
	}
	if len(r.Notes) > 0 {
		p("\n## Notes\n\n")
		for _, n := range r.Notes {
			p("- %s\n", mdEscape(n))
		}
	}
	return bw.Flush()
}

// writeSetting writes the date, machine, software, input and method.
func (r *results) writeSetting(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "- Date: %s; the run took %s\n", r.Date.UTC().Format("2006-01-02 15:04 MST"), r.Duration.Round(time.Second))
	fmt.Fprintf(w, "- Machine: %d CPUs (%s), %s memory, %s, %s\n", m.CPUs, orUnknown(m.CPUModel), bytesName(m.MemBytes), orUnknown(m.Kernel), m.Arch)
	fmt.Fprintf(w, "- Load average (1 min): %.2f before, %.2f after\n", m.LoadBefore, m.LoadAfter)
	fmt.Fprintf(w, "- Software: %s, %s, %s\n", m.Go, orUnknown(m.Libc), orUnknown(m.Coreutils))
	if r.Getdelim != "" {
		fmt.Fprintf(w, "- getdelim: %s\n", r.Getdelim)
	}
	src := "given with --input"
	if r.Input.Generated {
		src = fmt.Sprintf("generated, seed %d", r.Input.Seed)
	}
	fmt.Fprintf(w, "- Input: `%s`, %d bytes, %d lines (%s)\n", r.Input.Path, r.Input.Bytes, r.Input.Lines, src)
	fmt.Fprintf(w, "- Method: %d timed runs of each figure, interleaved (each round runs every figure once), "+
		"after one untimed run that counts the calls and warms up; the input is read once first, so it is in the page cache. "+
		"Wall time is from fork to exit. Median of the runs; spread is %s; MB/s is input bytes / median (MB = 10^6 B); "+
		"\"x bufsiz\" is the bufsiz figure's median over this one's, on the same fs (above 1 is faster). "+
		"Reads and writes are from `getdelim --stats=json`, or for the peers from `strace -f` (process start-up included); "+
		"buffer sizes in/out are what getdelim's streams chose, or for a peer the size most of its reads and writes asked for. "+
		"Max RSS is the child's peak as Linux reports it, which counts what headbench had resident when it started the child "+
		"(%s for `true`, the floor): an upper bound; \"≤ floor\" means the child's own peak was no higher.\n", r.RunsPerFigure, r.Spread, bytesName(r.RSSFloor))
}

// writeHeadline writes the gain on each file system, one line each, or
// why there is none.
func (r *results) writeHeadline(w io.Writer) {
	if len(r.Gains) == 0 {
		fmt.Fprintf(w, "No headline: it needs the figures %s, %s, %s and %s on a file system whose st_blksize is above %d, "+
			"where the proposal's rule and glibc's differ.\n", goBefore, goAfter, cBefore, cAfter, glibcBufsiz)
		return
	}
	for _, g := range r.Gains {
		fmt.Fprintf(w, "- %s.\n", g)
	}
	fmt.Fprintf(w, "\nGo: the median of %s over %s; C: the C loop's, %s over %s; the same run, interleaved. "+
		"A gain or a loss when every run under one rule was faster than every run under the other; "+
		"too noisy to tell when their runs, fastest to slowest, overlap.\n", goBefore, goAfter, cBefore, cAfter)
}

// ruleRow is a row of the table of the world's rules: a policy on a path,
// or a C loop.
type ruleRow struct {
	key, name, rule string
	// short names the row in the chart's legend: the policy or peer.
	short string
}

// ruleRows returns the rows of the table of the world's rules: every
// policy on each path, then the peers that have a rule.
func ruleRows() []ruleRow {
	var rows []ruleRow
	for _, path := range pathNames {
		for _, p := range policies {
			name := "`getdelim --loop`, " + p.name
			if path == pathCopy {
				name = "`getdelim -n`, " + p.name
			}
			rows = append(rows, ruleRow{policyKey(path, p.name), name, p.rule, p.name})
		}
	}
	for _, p := range peers {
		if p.rule != "" {
			rows = append(rows, ruleRow{"peer=" + p.name, p.title, p.rule, p.name + " (C loop)"})
		}
	}
	return rows
}

// writeRules writes the table of the world's rules: one row per policy on
// each path and per C loop, one column per file system, each cell the
// median, its ratios to bufio's and to the C loop's, the read(2) calls and
// the buffer memory.
func (r *results) writeRules(w io.Writer) {
	fmt.Fprintf(w, "Each cell: the median wall time; its ratio to policy bufio's (Go's 4 KiB) on the same path, "+
		"and to the C loop's under glibc's rule (below 1 takes less time); the same ratios of the median CPU time (user + system), "+
		"which a busy machine disturbs much less than the wall time; the read(2) calls; "+
		"the memory of the input and output buffers (with read-ahead's %d more input buffers when it read ahead). "+
		"A C loop's buffers are the sizes most of its calls asked for.\n\n", readaheadBuffers)
	fmt.Fprintf(w, "| figure | rule |")
	for _, t := range r.Targets {
		fmt.Fprintf(w, " %s (st_blksize %d) |", t.Name, t.Blksize)
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", len(r.Targets)))
	cell := map[[2]string]figureStats{}
	for _, f := range r.Figures {
		cell[[2]string{f.Key, f.Target}] = f
	}
	for _, row := range ruleRows() {
		if !slices.ContainsFunc(r.Figures, func(f figureStats) bool { return f.Key == row.key }) {
			continue
		}
		fmt.Fprintf(w, "| %s | %s |", row.name, row.rule)
		for _, t := range r.Targets {
			f, ok := cell[[2]string{row.key, t.Name}]
			if !ok || f.Wall == nil {
				fmt.Fprintf(w, " – |")
				continue
			}
			reads := "–"
			if f.Counts != nil {
				reads = fmt.Sprint(f.Counts.Reads)
			}
			fmt.Fprintf(w, " **%s**<br>%s bufio, %s C<br>CPU %s bufio, %s C<br>%s reads, %s |", msName(f.Wall.Median),
				ratioName(f.VsBufio), ratioName(f.VsC), ratioName(f.CPUVsBufio), ratioName(f.CPUVsC), reads, bytesName(f.Buffers))
		}
		fmt.Fprintln(w)
	}
}

// writeSummary writes one row per policy and peer and one column per fs.
func (r *results) writeSummary(w io.Writer) {
	fmt.Fprintf(w, "| figure |")
	for _, t := range r.Targets {
		fmt.Fprintf(w, " %s (st_blksize %d) |", t.Name, t.Blksize)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(r.Targets)))
	cell := map[[2]string]figureStats{}
	var keys []string
	titles := map[string]string{}
	for _, f := range r.Figures {
		if f.Kind == kindSweep {
			continue
		}
		if _, ok := titles[f.Key]; !ok {
			keys = append(keys, f.Key)
			titles[f.Key] = f.Title
		}
		cell[[2]string{f.Key, f.Target}] = f
	}
	for _, k := range keys {
		fmt.Fprintf(w, "| %s |", titles[k])
		for _, t := range r.Targets {
			f, ok := cell[[2]string{k, t.Name}]
			switch {
			case !ok || f.Wall == nil:
				fmt.Fprintf(w, " – |")
			case f.Speedup != nil:
				fmt.Fprintf(w, " %s (%.2fx) |", msName(f.Wall.Median), *f.Speedup)
			default:
				fmt.Fprintf(w, " %s |", msName(f.Wall.Median))
			}
		}
		fmt.Fprintln(w)
	}
}

// writeTargetTable writes every policy and peer figure on one target.
func (r *results) writeTargetTable(w io.Writer, name string) {
	fmt.Fprintf(w, "| figure | median | spread (min–max) | MB/s | x bufsiz | buffers in/out | reads | writes | user | sys | max RSS |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range r.figuresOn(name, kindPolicy, kindPeer) {
		fmt.Fprintf(w, "| %s |", f.Title)
		if f.Wall == nil {
			fmt.Fprintf(w, " no run succeeded |%s\n", strings.Repeat(" |", 9))
			continue
		}
		fmt.Fprintf(w, " %s | %s–%s | %.0f | %s | %s | %s | %s | %s | %s | %s |\n",
			msName(f.Wall.Median), msName(f.Wall.Min), msName(f.Wall.Max), f.MBps,
			ratioName(f.Speedup), buffersName(f.Counts), countName(f.Counts, true), countName(f.Counts, false),
			msName(f.UserMedian), msName(f.SysMedian), rssName(f.MaxRSS, r.RSSFloor))
	}
}

// writeSweepTable writes one row per size and one column per fs.
func (r *results) writeSweepTable(w io.Writer) {
	fmt.Fprintf(w, "| size |")
	for _, t := range r.Targets {
		fmt.Fprintf(w, " %s |", t.Name)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(r.Targets)))
	var sizes []int64
	cell := map[string]figureStats{} // by key and target
	for _, f := range r.Figures {
		if f.Kind != kindSweep {
			continue
		}
		if !slices.Contains(sizes, f.Size) {
			sizes = append(sizes, f.Size)
		}
		cell[f.Key+" "+f.Target] = f
	}
	for _, size := range sizes {
		key := fmt.Sprintf("policy=%d", size)
		fmt.Fprintf(w, "| %s |", sizeName(size))
		for _, t := range r.Targets {
			if f, ok := cell[key+" "+t.Name]; ok && f.Wall != nil {
				fmt.Fprintf(w, " %.0f (%s; CPU %s) |", f.MBps, msName(f.Wall.Median), msName(f.CPUMedian))
			} else {
				fmt.Fprintf(w, " – |")
			}
		}
		fmt.Fprintln(w)
	}
}

func (r *results) hasKind(kind string) bool {
	for _, f := range r.Figures {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// msName writes a duration in milliseconds, with a decimal below 100 ms.
func msName(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	if ms < 100 {
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// ratioName writes a ratio as 1.42x, or – when there is none.
func ratioName(x *float64) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("%.2fx", *x)
}

func buffersName(c *counts) string {
	switch {
	case c == nil:
		return "–"
	case c.In != nil && c.Out != nil:
		return sizeName(int64(c.In.Size)) + "/" + sizeName(int64(c.Out.Size))
	case c.ReadSize > 0 && c.WriteSize > 0:
		return sizeName(c.ReadSize) + "/" + sizeName(c.WriteSize)
	}
	return "–"
}

func countName(c *counts, reads bool) string {
	switch {
	case c == nil:
		return "–"
	case reads:
		return fmt.Sprint(c.Reads)
	}
	s := fmt.Sprint(c.Writes)
	if c.Kernel > 0 {
		s += fmt.Sprintf(" (+%d kernel copies)", c.Kernel)
	}
	return s
}

// bytesName writes a size in binary units, one decimal.
func bytesName(n int64) string {
	switch {
	case n <= 0:
		return "–"
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// rssName writes a max RSS, or "≤ floor" when it is no more than what any
// child of headbench is charged: the child's own peak is below that.
func rssName(n, floor int64) string {
	if n > 0 && n <= floor {
		return "≤ " + bytesName(floor)
	}
	return bytesName(n)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// mdEscape keeps a text from breaking a Markdown table.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
