//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fig is a figure on target fs whose runs had the given median, min and
// max in milliseconds.
func fig(key, fs string, n int, median, lo, hi float64) figureStats {
	kind := kindPeer
	switch {
	case strings.HasPrefix(key, "policy=") && strings.Trim(key[7:], "0123456789") == "":
		kind = kindSweep
	case strings.HasPrefix(key, "policy="):
		kind = kindPolicy
	}
	d := func(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
	return figureStats{Key: key, Kind: kind, Target: fs, Wall: &summary{N: n, Median: d(median), Min: d(lo), Max: d(hi)}}
}

// quiet is a run on two file systems with every figure within 5%, on a
// machine with 2 CPUs and a load of 0.4.
func quiet() *results {
	return &results{
		Machine: machine{CPUs: 2, LoadBefore: 0.4, LoadAfter: 0.3},
		Targets: []*target{{Name: "local", Blksize: 4096}, {Name: "xfs128k", Blksize: 131072}},
		Figures: []figureStats{
			fig(goBefore, "local", 5, 100, 99, 102),
			fig(goAfter, "local", 5, 100, 98, 101),
			fig(cBefore, "local", 5, 80, 79, 81),
			fig(cAfter, "local", 5, 80, 79, 81),
			fig(goBefore, "xfs128k", 5, 138, 136, 140),
			fig(goAfter, "xfs128k", 5, 100, 98, 101),
			fig(cBefore, "xfs128k", 5, 143, 140, 145),
			fig(cAfter, "xfs128k", 5, 100, 99, 102),
			fig("peer=cat", "xfs128k", 5, 10, 10, 10.4),
		},
	}
}

func TestGains(t *testing.T) {
	r := quiet()
	// Not on local: with st_blksize 4096 both rules give the same buffers.
	want := []gain{{"xfs128k", 131072, 1.38, 1.43}}
	if diff := cmp.Diff(want, r.gains(), cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, want := r.gains()[0].String(), "stream's policy gives Go the gain glibc's patch gives C: 1.38x vs 1.43x on this machine (fs=xfs128k, st_blksize 131072)"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}

	// A target without one of the four figures, or where one never ran,
	// has no headline.
	for i := 4; i < 8; i++ {
		for _, drop := range []bool{true, false} {
			r := quiet()
			if drop {
				r.Figures = slices.Delete(r.Figures, i, i+1)
			} else {
				r.Figures[i].Wall = nil
			}
			if g := r.gains(); len(g) != 0 {
				t.Errorf("without %s on xfs128k (dropped: %v): gains %+v, want none", quiet().Figures[i].Key, drop, g)
			}
		}
	}
}

func TestWarnings(t *testing.T) {
	const noisy = "the figures are noisy: run again on a quiet machine before quoting them"
	for _, tc := range []struct {
		name   string
		change func(*results)
		want   []string
	}{
		{"quiet", func(*results) {}, nil},
		{"load at the CPU count is not busy", func(r *results) { r.Machine.LoadAfter = 2 }, nil},
		{"load above the CPU count", func(r *results) { r.Machine.LoadAfter = 2.6 }, []string{
			"the machine was busy: load average 2.60 (before 0.40, after 2.60) above its 2 CPUs", noisy}},
		{"unknown load", func(r *results) { r.Machine.LoadBefore, r.Machine.LoadAfter = -1, -1 }, nil},
		{"one noisy figure", func(r *results) { r.Figures[8] = fig("peer=cat", "xfs128k", 5, 10, 9.5, 10.6) }, []string{
			"runs spread more than 10% of the median (slowest minus fastest run): peer=cat on fs=xfs128k 11%", noisy}},
		{"spread of exactly 10% is not noisy", func(r *results) { r.Figures[8] = fig("peer=cat", "xfs128k", 5, 10, 9.5, 10.5) }, nil},
		{"sweep figures and single runs are left out", func(r *results) {
			r.Figures = append(r.Figures, fig("policy=1024", "local", 5, 300, 200, 400), fig("peer=head", "local", 1, 50, 50, 50))
		}, nil},
		{"the worst three, then a count", func(r *results) {
			for i, spread := range []float64{20, 50, 30, 40, 15} {
				r.Figures[i] = fig(r.Figures[i].Key, r.Figures[i].Target, 5, 100, 100, 100+spread)
			}
			r.Machine.LoadBefore = 3
		}, []string{
			"the machine was busy: load average 3.00 (before 3.00, after 0.30) above its 2 CPUs",
			"runs spread more than 10% of the median (slowest minus fastest run): policy=blksize on fs=local 50%, " +
				"peer=c-rule on fs=local 40%, peer=c-default on fs=local 30% and 2 more",
			noisy}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := quiet()
			tc.change(r)
			if diff := cmp.Diff(tc.want, r.warnings()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReportsEndWithWarnings: the terminal summary carries the headline
// and ends with the warnings; results.md and results.json carry both.
func TestReportsEndWithWarnings(t *testing.T) {
	r := quiet()
	r.Machine.LoadAfter = 5
	r.Gains, r.Warnings = r.gains(), r.warnings()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	s := &session{out: &stdout, log: &stderr, prog: newProgress(&stderr)}
	s.writeReports(dir, r)

	out := stdout.String()
	headline := "stream's policy gives Go the gain glibc's patch gives C: 1.38x vs 1.43x on this machine (fs=xfs128k, st_blksize 131072)"
	wantEnd := "headbench: warning: the machine was busy: load average 5.00 (before 0.40, after 5.00) above its 2 CPUs\n" +
		"headbench: warning: the figures are noisy: run again on a quiet machine before quoting them\n"
	if !strings.Contains(out, headline) || !strings.HasSuffix(out, wantEnd) {
		t.Errorf("terminal summary:\n%s\nwant the headline and to end with\n%s", out, wantEnd)
	}
	if strings.Index(out, "results in") > strings.Index(out, "warning") {
		t.Errorf("warnings before the end of the summary:\n%s", out)
	}

	md, _ := os.ReadFile(filepath.Join(dir, fileMarkdown))
	for _, want := range []string{"## Headline\n\n- " + headline + ".\n\nGo: the median of policy=bufsiz over policy=blksize;",
		"**Warning:** the machine was busy"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, fileJSON))
	var back struct {
		Gains    []gain   `json:"gains"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Gains, back.Gains); diff != "" || len(back.Warnings) != 2 {
		t.Errorf("results.json gains (-want +got):\n%s\nwarnings %q", diff, back.Warnings)
	}
}
