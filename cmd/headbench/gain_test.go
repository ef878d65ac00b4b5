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
	want := []gain{{"xfs128k", 131072, 1.38, 1.43, gainShown, gainShown}}
	if diff := cmp.Diff(want, r.gains(), cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
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

// TestHeadline: the headline says what the runs show in Go and in C, a
// gain, a loss, or too noisy to tell when the two rules' runs overlap,
// whatever the medians' ratio.
func TestHeadline(t *testing.T) {
	type runs struct{ median, lo, hi float64 } // milliseconds
	var (
		faster  = runs{100, 99, 102}  // the proposal's rule, against before's 138
		before  = runs{138, 136, 140} // glibc's rule
		slower  = runs{145, 141, 150} // the proposal's rule, a loss against before
		overlap = runs{135, 120, 150} // the proposal's rule, its runs among before's
		once    = runs{100, 100, 100} // every rule ran once (--runs 1)
	)
	const where = " on this machine (fs=xfs128k, st_blksize 131072)"
	tests := []struct {
		name            string
		goAfter, cAfter runs
		goShows, cShows verdict
		want            string
	}{
		{"gain/gain", faster, faster, gainShown, gainShown,
			"the proposal's rule is a gain in Go (stream's policy) and in C (glibc's patch): 1.38x and 1.38x" + where},
		{"loss/gain", slower, faster, lossShown, gainShown,
			"the proposal's rule is a loss in Go (stream's policy), 0.95x, and a gain in C (glibc's patch), 1.38x," + where},
		{"gain/loss", faster, slower, gainShown, lossShown,
			"the proposal's rule is a gain in Go (stream's policy), 1.38x, and a loss in C (glibc's patch), 0.95x," + where},
		{"loss/loss", slower, slower, lossShown, lossShown,
			"the proposal's rule is a loss in Go (stream's policy) and in C (glibc's patch): 0.95x and 0.95x" + where},
		{"noise/gain", overlap, faster, tooNoisy, gainShown,
			"the proposal's rule is too noisy to tell in Go (stream's policy), 1.02x with the runs of the two rules overlapping, " +
				"and a gain in C (glibc's patch), 1.38x," + where},
		{"loss/noise", slower, overlap, lossShown, tooNoisy,
			"the proposal's rule is a loss in Go (stream's policy), 0.95x, and too noisy to tell in C (glibc's patch), " +
				"1.02x with the runs of the two rules overlapping," + where},
		{"noise/noise", overlap, overlap, tooNoisy, tooNoisy,
			"too noisy to tell a gain from a loss in Go (stream's policy) or in C (glibc's patch): 1.02x and 1.02x, " +
				"the runs of the two rules overlapping," + where},
		{"spreads that touch are noise", runs{120, 110, 136}, runs{141, 140, 150}, tooNoisy, tooNoisy,
			"too noisy to tell a gain from a loss in Go (stream's policy) or in C (glibc's patch): 1.15x and 0.98x, " +
				"the runs of the two rules overlapping," + where},
		{"one run each", once, once, tooFew, tooFew,
			"too few runs to tell a gain from a loss: 1.38x in Go (stream's policy) and 1.38x in C (glibc's patch) " +
				"from one run of a rule; run with --runs 5 or more" + where},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := quiet()
			n := 5
			if tt.goAfter == once {
				n = 1
			}
			for i, f := range []struct {
				key string
				r   runs
			}{{goBefore, before}, {goAfter, tt.goAfter}, {cBefore, before}, {cAfter, tt.cAfter}} {
				r.Figures[4+i] = fig(f.key, "xfs128k", n, f.r.median, f.r.lo, f.r.hi)
			}
			g := r.gains()
			if len(g) != 1 {
				t.Fatalf("gains %+v, want one", g)
			}
			if g[0].GoShows != tt.goShows || g[0].CShows != tt.cShows {
				t.Errorf("Go shows %q, C shows %q; want %q, %q", g[0].GoShows, g[0].CShows, tt.goShows, tt.cShows)
			}
			if diff := cmp.Diff(tt.want, g[0].String()); diff != "" {
				t.Errorf("headline (-want +got):\n%s", diff)
			}
		})
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
	headline := "the proposal's rule is a gain in Go (stream's policy) and in C (glibc's patch): 1.38x and 1.43x on this machine (fs=xfs128k, st_blksize 131072)"
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
