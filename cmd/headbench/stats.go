//go:build linux

package main

import (
	"errors"
	"slices"
	"time"
)

// summary describes the wall times of one figure's runs. The spread
// reported in the tables is Min to Max: with 5 to 11 runs, quartiles rest on
// two or three runs each and say little more; Q1 and Q3 (linear
// interpolation between order statistics) are kept in results.json.
type summary struct {
	N      int           `json:"n"`
	Median time.Duration `json:"median_ns"`
	Min    time.Duration `json:"min_ns"`
	Max    time.Duration `json:"max_ns"`
	Q1     time.Duration `json:"q1_ns"`
	Q3     time.Duration `json:"q3_ns"`
}

var errNoSamples = errors.New("no samples")

// summarize returns the summary of xs, which it does not change.
func summarize(xs []time.Duration) (summary, error) {
	if len(xs) == 0 {
		return summary{}, errNoSamples
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return summary{
		N:      len(s),
		Median: quantile(s, 0.5),
		Min:    s[0],
		Max:    s[len(s)-1],
		Q1:     quantile(s, 0.25),
		Q3:     quantile(s, 0.75),
	}, nil
}

// quantile returns the q-quantile of the sorted, non-empty s, interpolating
// linearly between the two nearest order statistics (R's type 7, numpy's
// default), so that the median of an even count is the mean of the middle
// two.
func quantile(s []time.Duration, q float64) time.Duration {
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := pos - float64(lo)
	return s[lo] + time.Duration(frac*float64(s[lo+1]-s[lo])+0.5)
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
