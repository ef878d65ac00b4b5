//go:build linux

package main

import (
	"errors"
	"slices"
	"time"
)

// summary describes the wall times of one figure's runs. The spread
// reported is Min to Max: with 5 to 11 runs, quartiles would rest on two or
// three runs each and say little more.
type summary struct {
	N      int           `json:"n"`
	Median time.Duration `json:"median_ns"`
	Min    time.Duration `json:"min_ns"`
	Max    time.Duration `json:"max_ns"`
}

var errNoSamples = errors.New("no samples")

// summarize returns the summary of xs, which it does not change. The
// median of an even count is the mean of the middle two.
func summarize(xs []time.Duration) (summary, error) {
	if len(xs) == 0 {
		return summary{}, errNoSamples
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	return summary{N: n, Median: (s[(n-1)/2] + s[n/2]) / 2, Min: s[0], Max: s[n-1]}, nil
}

// spread returns (Max-Min)/Median: how far apart the runs were, as a
// fraction of the figure.
func (s summary) spread() float64 {
	if s.Median <= 0 {
		return 0
	}
	return float64(s.Max-s.Min) / float64(s.Median)
}

// throughput returns bytes per wall time in MB/s, with MB = 10^6 bytes as in
// Go's benchmark output. It returns 0 for a non-positive d.
func throughput(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bytes) / d.Seconds() / 1e6
}

// speedup returns how many times faster than baseline a figure whose median
// is d ran: baseline/d, so 1.42 means 1.42x the baseline's speed. ok is false
// when either is not positive.
func speedup(baseline, d time.Duration) (x float64, ok bool) {
	if baseline <= 0 || d <= 0 {
		return 0, false
	}
	return float64(baseline) / float64(d), true
}
