//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"hash"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

// castagnoli is CRC-32C, which the CPU computes at many GB/s: checking every
// command's output costs little beside the commands.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// seedDefault is the seed of the generated input.
const seedDefault = seedinput.DefaultSeed

// inputInfo describes the input every figure reads.
type inputInfo struct {
	Path      string `json:"path"`
	Bytes     int64  `json:"bytes"`
	Lines     int64  `json:"lines"`
	Generated bool   `json:"generated"`
	Seed      uint64 `json:"seed,omitempty"`
	crc       uint32
}

func countByte(p []byte, b byte) int { return bytes.Count(p, []byte{b}) }

// generate returns the generated input, from the cache when it is there.
// With no cache (no home folder, no room) it makes the input in work, which
// the run removes, and says so.
func (s *session) generate(work string) (string, error) {
	dir := s.o.cache
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			s.note(false, "no user cache directory (%v): the input is made in a temporary folder and not kept", err)
		} else {
			dir = filepath.Join(base, "stdiobuf")
		}
	}
	if dir != "" {
		s.prog.printf("input: %d lines (seed %d) in %s", s.o.lines, seedDefault, dir)
		path, created, err := seedinput.File(dir, s.o.lines, seedDefault)
		if err == nil {
			if created {
				s.prog.printf("made %s", path)
			} else {
				s.prog.printf("reusing %s", path)
			}
			return path, nil
		}
		s.note(false, "cache: %v; the input is made in a temporary folder instead", err)
	}
	path, _, err := seedinput.File(work, s.o.lines, seedDefault)
	if err != nil {
		return "", fmt.Errorf("no room for the input: %v", err)
	}
	return path, nil
}

// crcWriter hashes and counts what a command writes.
type crcWriter struct {
	h hash.Hash32
	n int64
}

func (w *crcWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return w.h.Write(p)
}

// stdinOf returns the file a job's command reads as standard input, if any.
func stdinOf(j *job) string {
	if j.fig.stdin {
		return j.tgt.Input
	}
	return ""
}

// check runs each figure once on the first target with its output in a
// pipe and compares it with the input (every command copies all its lines).
// A figure that fails or copies wrong is left out everywhere: its time
// would mean nothing.
func (s *session) check(ctx context.Context, jobs []*job, in inputInfo) []*job {
	if len(jobs) == 0 {
		return nil
	}
	first := jobs[0].tgt
	s.prog.printf("checking the output of each command on fs=%s", first.Name)
	bad := map[*figure]bool{}
	est := map[*figure]time.Duration{}
	for _, j := range jobs {
		if j.tgt != first {
			continue
		}
		w := &crcWriter{h: crc32.New(castagnoli)}
		smp, _, err := runOnce(ctx, runSpec{argv: j.fig.args(in.Lines, j.tgt.Input), stdin: stdinOf(j), stdout: w})
		if ctx.Err() != nil {
			return nil
		}
		est[j.fig] = smp.Wall
		switch {
		case err != nil:
			s.note(true, "%s: left out: %v", j.fig.Key, err)
			bad[j.fig] = true
		case w.n != in.Bytes || w.h.Sum32() != in.crc:
			s.note(true, "%s: left out: its output (%d bytes, CRC-32C %08x) is not the input (%d bytes, %08x)",
				j.fig.Key, w.n, w.h.Sum32(), in.Bytes, in.crc)
			bad[j.fig] = true
		}
	}
	var kept []*job
	for _, j := range jobs {
		if !bad[j.fig] {
			j.est = est[j.fig]
			j.checked = fmt.Sprintf("output matched the input on fs=%s", first.Name)
			kept = append(kept, j)
		}
	}
	return kept
}

// count runs each job once, untimed, to count its read and write calls:
// getdelim with --stats=json, a peer under strace -f when strace works. The
// run also warms up each command and gives a first time estimate.
func (s *session) count(ctx context.Context, jobs []*job, in inputInfo, strace string, devnull *os.File) {
	if len(jobs) == 0 {
		return
	}
	s.prog.printf("counting read and write calls (one untimed run of each)")
	for _, j := range jobs {
		argv := j.fig.args(in.Lines, j.tgt.Input)
		var straceOut string
		switch {
		case j.fig.getdelim:
			argv = append([]string{argv[0], "--stats=json"}, argv[1:]...)
		case strace != "":
			f, err := os.CreateTemp("", "headbench-strace-")
			if err != nil {
				s.note(false, "%s: no strace count: %v", j.bench(), err)
				break
			}
			f.Close()
			straceOut = f.Name()
			argv = straceCommand(strace, straceOut, argv...)
		}
		smp, stderr, err := runOnce(ctx, runSpec{argv: argv, stdin: stdinOf(j), stdout: devnull})
		if ctx.Err() != nil {
			os.Remove(straceOut)
			return
		}
		if straceOut == "" {
			// strace slows a run down many times: keep the check's time.
			j.est = smp.Wall
		}
		var c counts
		switch {
		case err != nil:
			s.note(false, "%s: counting run failed: %v", j.bench(), err)
		case j.fig.getdelim:
			if c, err = parseGetdelimStats(stderr); err != nil {
				s.note(false, "%s: %v", j.bench(), err)
			} else {
				j.counts = &c
			}
		case straceOut != "":
			b, rerr := os.ReadFile(straceOut)
			if rerr == nil {
				c, rerr = parseStraceTrace(string(b))
			}
			if rerr != nil {
				s.note(false, "%s: %v", j.bench(), rerr)
			} else {
				j.counts = &c
			}
		}
		if straceOut != "" {
			os.Remove(straceOut)
		}
	}
}

// time runs every job runs times, interleaved: round 1 runs each job once,
// then round 2, and so on, so that a slow minute on a shared machine hits
// every figure alike instead of a few.
func (s *session) time(ctx context.Context, jobs []*job, in inputInfo, devnull *os.File) error {
	runs := s.o.runs
	total := len(jobs) * runs
	var perRound time.Duration
	for _, j := range jobs {
		perRound += j.est
	}
	s.prog.printf("timing %d figures x %d runs", len(jobs), runs)
	done := 0
	for r := 1; r <= runs; r++ {
		left := perRound * time.Duration(runs-r+1)
		for _, j := range jobs {
			s.prog.status(done, total, left, fmt.Sprintf("run %d/%d %s", r, runs, j.bench()))
			// Outside the timed window: see rssFloor.
			debug.FreeOSMemory()
			smp, _, err := runOnce(ctx, runSpec{argv: j.fig.args(in.Lines, j.tgt.Input), stdin: stdinOf(j), stdout: devnull})
			if ctx.Err() != nil {
				s.prog.clear()
				return context.Cause(ctx)
			}
			rec := runRecord{Bench: j.bench(), Round: r}
			if err != nil {
				rec.Err = err.Error()
				if len(j.samples) == len(j.runs) { // the first failure
					s.note(true, "%s: run %d failed: %v", j.bench(), r, err)
				}
			} else {
				rec.Wall, rec.User, rec.Sys, rec.MaxRSS = smp.Wall, smp.User, smp.Sys, smp.MaxRSS
				j.samples = append(j.samples, smp)
				perRound += smp.Wall - j.est
				j.est = smp.Wall
			}
			j.runs = append(j.runs, rec)
			left -= j.est
			done++
		}
	}
	s.prog.clear()
	return nil
}
