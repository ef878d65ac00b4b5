package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuartiles(t *testing.T) {
	cases := []struct {
		xs   []float64
		want [3]float64
	}{
		{[]float64{3, 1, 2}, [3]float64{1, 2, 3}},
		{[]float64{1.1, 0.9, 1.0, 1.3, 1.2, 1.05, 0.95, 1.15}, [3]float64{1.0, 1.1, 1.2}},
		{[]float64{5, 5, 5, 5}, [3]float64{5, 5, 5}},
	}
	for _, c := range cases {
		q1, q2, q3 := quartiles(c.xs)
		if diff := cmp.Diff(c.want, [3]float64{q1, q2, q3}); diff != "" {
			t.Errorf("quartiles(%v) (-want +got):\n%s", c.xs, diff)
		}
	}
}
