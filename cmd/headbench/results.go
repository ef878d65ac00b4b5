//go:build linux

package main

import (
	"slices"
	"time"
)

// results is everything a run found; results.json is this, and the other
// reports are drawn from it.
type results struct {
	Date          time.Time     `json:"date"`
	Machine       machine       `json:"machine"`
	Input         inputInfo     `json:"input"`
	Output        string        `json:"output"`
	OutputBlksize int64         `json:"output_st_blksize"`
	RunsPerFigure int           `json:"runs_per_figure"`
	Spread        string        `json:"spread"`
	Duration      time.Duration `json:"duration_ns"`
	// RSSFloor is the max RSS Linux reports for true(1) started by
	// headbench: the part of every max RSS figure that is headbench's own.
	RSSFloor int64     `json:"rss_floor_bytes"`
	Targets  []*target `json:"targets"`
	// Gains is the headline on each file system where its four figures
	// ran; Warnings say why the figures may be noisy (see gain.go).
	Gains    []gain        `json:"gains"`
	Warnings []string      `json:"warnings"`
	Figures  []figureStats `json:"figures"`
	Notes    []string      `json:"notes"`
	Runs     []runRecord   `json:"runs"`
}

// figureStats is one figure on one target.
type figureStats struct {
	Bench   string `json:"bench"`
	Kind    string `json:"kind"`
	Key     string `json:"key"`
	Title   string `json:"title"`
	Target  string `json:"fs"`
	Blksize int64  `json:"st_blksize"`
	Command string `json:"command"`
	// Size is a sweep figure's buffer size.
	Size int64 `json:"size,omitempty"`
	// Wall is nil when no run succeeded.
	Wall *summary `json:"wall,omitempty"`
	// MBps is the input's size over the median wall time.
	MBps float64 `json:"mb_per_s,omitempty"`
	// Speedup is the bufsiz figure's median on the same target over this
	// figure's: 1.42 means 1.42x as fast as the baseline.
	Speedup    *float64      `json:"speedup_vs_bufsiz,omitempty"`
	UserMedian time.Duration `json:"user_median_ns"`
	SysMedian  time.Duration `json:"sys_median_ns"`
	MaxRSS     int64         `json:"max_rss_bytes"`
	Counts     *counts       `json:"counts,omitempty"`
	Checked    string        `json:"checked"`
}

// runRecord is one timed run.
type runRecord struct {
	Bench  string        `json:"bench"`
	Round  int           `json:"round"`
	Wall   time.Duration `json:"wall_ns"`
	User   time.Duration `json:"user_ns"`
	Sys    time.Duration `json:"sys_ns"`
	MaxRSS int64         `json:"max_rss_bytes"`
	Err    string        `json:"error,omitempty"`
}

// baselineKey is the figure the speedups are relative to: glibc's rule today.
const baselineKey = "policy=bufsiz"

// fill summarizes the jobs into r, in the jobs' order, and draws the
// headline and the warnings from them and r.Machine.
func (r *results) fill(jobs []*job, inputBytes int64) {
	baseline := map[string]time.Duration{}
	r.Figures = nil
	r.Runs = nil
	for _, j := range jobs {
		fs := figureStats{
			Bench: j.bench(), Kind: j.fig.Kind, Key: j.fig.Key, Title: j.fig.Title,
			Target: j.tgt.Name, Blksize: j.tgt.Blksize, Command: j.fig.shell(r.Input.Lines),
			Size: j.fig.Size, Counts: j.counts, Checked: j.checked,
		}
		var wall, user, sys []time.Duration
		for _, s := range j.samples {
			wall = append(wall, s.Wall)
			user = append(user, s.User)
			sys = append(sys, s.Sys)
			fs.MaxRSS = max(fs.MaxRSS, s.MaxRSS)
		}
		if w, err := summarize(wall); err == nil {
			fs.Wall = &w
			fs.MBps = throughput(inputBytes, w.Median)
			u, _ := summarize(user)
			k, _ := summarize(sys)
			fs.UserMedian, fs.SysMedian = u.Median, k.Median
			if j.fig.Key == baselineKey {
				baseline[j.tgt.Name] = w.Median
			}
		}
		r.Figures = append(r.Figures, fs)
		r.Runs = append(r.Runs, j.runs...)
	}
	for i := range r.Figures {
		f := &r.Figures[i]
		if f.Wall == nil {
			continue
		}
		if x, ok := speedup(baseline[f.Target], f.Wall.Median); ok {
			f.Speedup = &x
		}
	}
	// Runs in the order they ran: round by round.
	slices.SortStableFunc(r.Runs, func(a, b runRecord) int { return a.Round - b.Round })
	r.Gains, r.Warnings = r.gains(), r.warnings()
}

// figuresOn returns the figures on target name whose kind is one of kinds.
func (r *results) figuresOn(name string, kinds ...string) []figureStats {
	var out []figureStats
	for _, f := range r.Figures {
		if f.Target == name && slices.Contains(kinds, f.Kind) {
			out = append(out, f)
		}
	}
	return out
}
