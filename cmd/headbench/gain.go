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
// proposal's rule makes the loop in Go (stream's policy) and in C (glibc).
type gain struct {
	Target  string  `json:"fs"`
	Blksize int64   `json:"st_blksize"`
	Go      float64 `json:"go"`
	C       float64 `json:"c"`
}

// String is the headline as the README states it.
func (g gain) String() string {
	return fmt.Sprintf("stream's policy gives Go the gain glibc's patch gives C: %.2fx vs %.2fx on this machine (fs=%s, st_blksize %d)",
		g.Go, g.C, g.Target, g.Blksize)
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
		median := map[string]float64{}
		for _, f := range r.figuresOn(t.Name, kindPolicy, kindPeer) {
			if f.Wall != nil {
				median[f.Key] = float64(f.Wall.Median)
			}
		}
		if median[goBefore] == 0 || median[goAfter] == 0 || median[cBefore] == 0 || median[cAfter] == 0 {
			continue
		}
		out = append(out, gain{Target: t.Name, Blksize: t.Blksize,
			Go: median[goBefore] / median[goAfter], C: median[cBefore] / median[cAfter]})
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
