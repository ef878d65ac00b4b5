//go:build linux

package main

import (
	"cmp"
	"slices"
	"time"
)

// results is everything a run found; results.json is this, and the other
// reports are drawn from it.
type results struct {
	Date          time.Time `json:"date"`
	Machine       machine   `json:"machine"`
	Input         inputInfo `json:"input"`
	Output        string    `json:"output"`
	OutputBlksize int64     `json:"output_st_blksize"`
	// Getdelim says where the getdelim binary comes from: a checkout
	// (with its git revision) or --getdelim.
	Getdelim      string        `json:"getdelim,omitempty"`
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
	// Path and Policy are a policy figure's (see figure).
	Path   string `json:"path,omitempty"`
	Policy string `json:"policy,omitempty"`
	// Size is a sweep figure's buffer size.
	Size int64 `json:"size,omitempty"`
	// Wall is nil when no run succeeded.
	Wall *summary `json:"wall,omitempty"`
	// MBps is the input's size over the median wall time.
	MBps float64 `json:"mb_per_s,omitempty"`
	// Speedup is the bufsiz figure's median on the same target over this
	// figure's: 1.42 means 1.42x as fast as the baseline.
	Speedup *float64 `json:"speedup_vs_bufsiz,omitempty"`
	// VsBufio is this figure's median over that of policy bufio on the
	// same path and target, VsC over that of the C loop under glibc's
	// rule (peer=c-default) on the same target: 0.95 takes 5% less time.
	VsBufio    *float64      `json:"time_vs_bufio,omitempty"`
	VsC        *float64      `json:"time_vs_c_loop,omitempty"`
	UserMedian time.Duration `json:"user_median_ns"`
	SysMedian  time.Duration `json:"sys_median_ns"`
	// CPUMedian is the median of the runs' user plus system time. On a
	// busy machine it varies much less than the wall time, which counts
	// the waits for a CPU; CPUVsBufio and CPUVsC are VsBufio and VsC of
	// it.
	CPUMedian  time.Duration `json:"cpu_median_ns"`
	CPUVsBufio *float64      `json:"cpu_vs_bufio,omitempty"`
	CPUVsC     *float64      `json:"cpu_vs_c_loop,omitempty"`
	MaxRSS     int64         `json:"max_rss_bytes"`
	// Buffers is the bytes of the input and output buffers; 0 unknown.
	Buffers int64   `json:"buffer_bytes,omitempty"`
	Counts  *counts `json:"counts,omitempty"`
	Checked string  `json:"checked"`
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

// cLoopKey is the C loop under glibc's rule, the reference of VsC.
const cLoopKey = "peer=c-default"

// fill summarizes the jobs into r, in the jobs' order, and draws the
// headline and the warnings from them and r.Machine.
func (r *results) fill(jobs []*job, inputBytes int64) {
	type medians struct{ wall, cpu time.Duration }
	median := map[[2]string]medians{} // by key and target
	r.Figures = nil
	r.Runs = nil
	for _, j := range jobs {
		fs := figureStats{
			Bench: j.bench(), Kind: j.fig.Kind, Key: j.fig.Key, Title: j.fig.Title,
			Target: j.tgt.Name, Blksize: j.tgt.Blksize, Command: j.fig.shell(r.Input.Lines),
			Path: j.fig.Path, Policy: j.fig.Policy,
			Size: j.fig.Size, Counts: j.counts, Buffers: j.counts.buffers(), Checked: j.checked,
		}
		var wall, user, sys, cpu []time.Duration
		for _, s := range j.samples {
			wall = append(wall, s.Wall)
			user = append(user, s.User)
			sys = append(sys, s.Sys)
			cpu = append(cpu, s.User+s.Sys)
			fs.MaxRSS = max(fs.MaxRSS, s.MaxRSS)
		}
		if w, err := summarize(wall); err == nil {
			fs.Wall = &w
			fs.MBps = throughput(inputBytes, w.Median)
			u, _ := summarize(user)
			k, _ := summarize(sys)
			c, _ := summarize(cpu)
			fs.UserMedian, fs.SysMedian, fs.CPUMedian = u.Median, k.Median, c.Median
			median[[2]string{j.fig.Key, j.tgt.Name}] = medians{w.Median, c.Median}
		}
		r.Figures = append(r.Figures, fs)
		r.Runs = append(r.Runs, j.runs...)
	}
	for i := range r.Figures {
		f := &r.Figures[i]
		if f.Wall == nil {
			continue
		}
		// ratios are this figure's wall and CPU times over key's on the
		// same target: key's speedups over this one.
		ratios := func(key string) (wall, cpu *float64) {
			ref := median[[2]string{key, f.Target}]
			if x, ok := speedup(f.Wall.Median, ref.wall); ok {
				wall = &x
			}
			if x, ok := speedup(f.CPUMedian, ref.cpu); ok {
				cpu = &x
			}
			return wall, cpu
		}
		if x, ok := speedup(median[[2]string{baselineKey, f.Target}].wall, f.Wall.Median); ok {
			f.Speedup = &x
		}
		if f.Kind == kindPolicy || f.Kind == kindPeer {
			f.VsBufio, f.CPUVsBufio = ratios(policyKey(cmp.Or(f.Path, pathLoop), "bufio"))
			f.VsC, f.CPUVsC = ratios(cLoopKey)
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
