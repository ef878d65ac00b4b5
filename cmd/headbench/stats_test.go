//go:build linux

package main

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ms(xs ...float64) []time.Duration {
	d := make([]time.Duration, len(xs))
	for i, x := range xs {
		d[i] = time.Duration(x * float64(time.Millisecond))
	}
	return d
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []time.Duration
		want summary
	}{
		{"one", ms(5), summary{N: 1, Median: ms(5)[0], Min: ms(5)[0], Max: ms(5)[0]}},
		{"odd unsorted", ms(30, 10, 20), summary{N: 3, Median: ms(20)[0], Min: ms(10)[0], Max: ms(30)[0]}},
		{"even: mean of the middle two", ms(4, 1, 3, 2), summary{N: 4, Median: ms(2.5)[0], Min: ms(1)[0], Max: ms(4)[0]}},
		{"two", ms(9, 3), summary{N: 2, Median: ms(6)[0], Min: ms(3)[0], Max: ms(9)[0]}},
		{"outlier does not move the median", ms(38, 37, 39, 38, 900), summary{N: 5, Median: ms(38)[0], Min: ms(37)[0], Max: ms(900)[0]}},
		{"ties", ms(7, 7, 7, 7, 7, 7), summary{N: 6, Median: ms(7)[0], Min: ms(7)[0], Max: ms(7)[0]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]time.Duration(nil), tc.in...)
			got, err := summarize(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("summarize(%v) (-want +got):\n%s", tc.in, diff)
			}
			if diff := cmp.Diff(in, tc.in); diff != "" {
				t.Errorf("summarize changed its input (-before +after):\n%s", diff)
			}
		})
	}
}

func TestSummarizeEmpty(t *testing.T) {
	if _, err := summarize(nil); !errors.Is(err, errNoSamples) {
		t.Errorf("summarize(nil) error = %v, want %v", err, errNoSamples)
	}
}

func TestSpread(t *testing.T) {
	for _, tc := range []struct {
		s    summary
		want float64
	}{
		{summary{Median: ms(40)[0], Min: ms(38)[0], Max: ms(42)[0]}, 0.1},
		{summary{Median: ms(40)[0], Min: ms(40)[0], Max: ms(40)[0]}, 0},
		{summary{Median: ms(10)[0], Min: ms(9)[0], Max: ms(30)[0]}, 2.1},
		{summary{}, 0},
	} {
		if got := tc.s.spread(); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%+v.spread() = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestThroughput(t *testing.T) {
	for _, tc := range []struct {
		bytes int64
		d     time.Duration
		want  float64
	}{
		{230140805, 38 * time.Millisecond, 6056.337},
		{1e6, time.Second, 1},
		{1e9, 0, 0},
		{1e9, -time.Second, 0},
	} {
		if got := throughput(tc.bytes, tc.d); math.Abs(got-tc.want) > 0.001 {
			t.Errorf("throughput(%d, %v) = %.4f, want %.4f", tc.bytes, tc.d, got, tc.want)
		}
	}
}

func TestSpeedup(t *testing.T) {
	for _, tc := range []struct {
		base, d time.Duration
		want    float64
		ok      bool
	}{
		{54 * time.Millisecond, 38 * time.Millisecond, 1.4210526, true},
		{54 * time.Millisecond, 108 * time.Millisecond, 0.5, true},
		{54 * time.Millisecond, 54 * time.Millisecond, 1, true},
		{0, 38 * time.Millisecond, 0, false},
		{54 * time.Millisecond, 0, 0, false},
	} {
		got, ok := speedup(tc.base, tc.d)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("speedup(%v, %v) = %v, %v; want %v, %v", tc.base, tc.d, got, ok, tc.want, tc.ok)
		}
	}
}
