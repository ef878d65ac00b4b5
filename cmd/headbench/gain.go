//go:build linux

package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The figures of the headline. The glibc proposal's gain is the same
// getdelim/fwrite loop in C with glibc's rule today, min(st_blksize, 8 KiB),
// against the proposed min(st_blksize, 128 KiB); stream's is getdelim
// --loop with the bufsiz policy (glibc's rule) against blksize (the
// proposal's, stream's default). The gain follows the cost of a read(2), so
// it is only comparable within one run on one machine.
const (
	goBefore = baselineKey
	goAfter  = "policy=blksize"
	cBefore  = "peer=c-default"
	cAfter   = "peer=c-rule"
)

// gain is the headline on one file system: how many times faster the
// proposal's rule makes the loop in Go (stream's policy) and in C (glibc),
// and what each ratio shows.
type gain struct {
	Target  string  `json:"fs"`
	Blksize int64   `json:"st_blksize"`
	Go      float64 `json:"go"`
	C       float64 `json:"c"`
	GoShows verdict `json:"go_shows"`
	CShows  verdict `json:"c_shows"`
}

// verdict is what the runs of a loop under the two rules show.
type verdict string

const (
	gainShown verdict = "gain"                 // every run under the proposal's rule was faster than every run under glibc's
	lossShown verdict = "loss"                 // every run under the proposal's rule was slower than every run under glibc's
	tooNoisy  verdict = "too noisy to tell"    // the two rules' runs, fastest to slowest, overlap
	tooFew    verdict = "too few runs to tell" // a rule ran once: there is no spread to judge by
)

// judge returns what the runs of one loop show, before under glibc's rule
// and after under the proposal's: a gain or a loss when their spreads
// (fastest to slowest run) are apart, else tooNoisy, whatever the medians;
// tooFew if either ran once.
func judge(before, after summary) verdict {
	switch {
	case before.N < 2 || after.N < 2:
		return tooFew
	case after.Max < before.Min:
		return gainShown
	case after.Min > before.Max:
		return lossShown
	}
	return tooNoisy
}

// String is the headline: what the proposal's rule does to the loop in Go
// and in C, and the ratios of the medians.
func (g gain) String() string {
	where := fmt.Sprintf("on this machine (fs=%s, st_blksize %d)", g.Target, g.Blksize)
	if g.GoShows == tooFew || g.CShows == tooFew {
		return fmt.Sprintf("too few runs to tell a gain from a loss: %.2fx in Go (stream's policy) and %.2fx in C (glibc's patch) "+
			"from one run of a rule; run with --runs 5 or more %s", g.Go, g.C, where)
	}
	if g.GoShows == g.CShows {
		if g.GoShows == tooNoisy {
			return fmt.Sprintf("too noisy to tell a gain from a loss in Go (stream's policy) or in C (glibc's patch): "+
				"%.2fx and %.2fx, the runs of the two rules overlapping, %s", g.Go, g.C, where)
		}
		return fmt.Sprintf("the proposal's rule is a %s in Go (stream's policy) and in C (glibc's patch): %.2fx and %.2fx %s",
			g.GoShows, g.Go, g.C, where)
	}
	side := func(v verdict, lang, how string, x float64) string {
		if v == tooNoisy {
			return fmt.Sprintf("too noisy to tell in %s (%s), %.2fx with the runs of the two rules overlapping", lang, how, x)
		}
		return fmt.Sprintf("a %s in %s (%s), %.2fx", v, lang, how, x)
	}
	return fmt.Sprintf("the proposal's rule is %s, and %s, %s",
		side(g.GoShows, "Go", "stream's policy", g.Go), side(g.CShows, "C", "glibc's patch", g.C), where)
}

// glibcBufsiz is BUFSIZ, glibc's cap on a buffer today: on a file system
// whose st_blksize is no larger both rules give the same buffer, and there
// is no gain to report.
const glibcBufsiz = 8192

// gains returns the headline on each target whose st_blksize is above
// glibcBufsiz and where all four figures ran.
func (r *results) gains() []gain {
	var out []gain
	for _, t := range r.Targets {
		if t.Blksize <= glibcBufsiz {
			continue
		}
		wall := map[string]summary{}
		for _, f := range r.figuresOn(t.Name, kindPolicy, kindPeer) {
			if f.Wall != nil && f.Wall.Median > 0 {
				wall[f.Key] = *f.Wall
			}
		}
		if wall[goBefore].N == 0 || wall[goAfter].N == 0 || wall[cBefore].N == 0 || wall[cAfter].N == 0 {
			continue
		}
		ratio := func(before, after string) float64 {
			x, _ := speedup(wall[before].Median, wall[after].Median)
			return x
		}
		out = append(out, gain{Target: t.Name, Blksize: t.Blksize,
			Go: ratio(goBefore, goAfter), C: ratio(cBefore, cAfter),
			GoShows: judge(wall[goBefore], wall[goAfter]), CShows: judge(wall[cBefore], wall[cAfter])})
	}
	return out
}

// maxSpread is the run-to-run spread, (max-min)/median, above which a
// figure is called noisy.
const maxSpread = 0.10

// warnings says why the figures may not be trusted: a load average above
// the CPU count when the run started or ended (others were using the
// machine), or a policy or peer figure whose runs spread more than
// maxSpread. Each warning is one sentence.
func (r *results) warnings() []string {
	var w []string
	m := r.Machine
	if load := max(m.LoadBefore, m.LoadAfter); m.CPUs > 0 && load > float64(m.CPUs) {
		w = append(w, fmt.Sprintf("the machine was busy: load average %.2f (before %.2f, after %.2f) above its %d CPUs",
			load, m.LoadBefore, m.LoadAfter, m.CPUs))
	}
	type noisy struct {
		name   string
		spread float64
	}
	var bad []noisy
	for _, f := range r.Figures {
		if f.Kind != kindSweep && f.Wall != nil && f.Wall.N > 1 && f.Wall.spread() > maxSpread {
			bad = append(bad, noisy{f.Key + " on fs=" + f.Target, f.Wall.spread()})
		}
	}
	if len(bad) > 0 {
		slices.SortStableFunc(bad, func(a, b noisy) int { return cmp.Compare(b.spread, a.spread) })
		var names []string
		for _, b := range bad[:min(3, len(bad))] {
			names = append(names, fmt.Sprintf("%s %.0f%%", b.name, 100*b.spread))
		}
		more := ""
		if len(bad) > 3 {
			more = fmt.Sprintf(" and %d more", len(bad)-3)
		}
		w = append(w, fmt.Sprintf("runs spread more than %.0f%% of the median (slowest minus fastest run): %s%s",
			100*maxSpread, strings.Join(names, ", "), more))
	}
	if len(w) > 0 {
		w = append(w, "the figures are noisy: run again on a quiet machine before quoting them")
	}
	return w
}
