//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// writeJSON writes results.json: every figure and every run.
func (r *results) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeBench writes the runs in the Go benchmark format
// (golang.org/design/14313-benchmark-format), one line per timed run, so
// that `benchstat old/bench.txt new/bench.txt` compares two runs:
//
//	BenchmarkHead/policy=blksize/fs=xfs128k 1 38000000 ns/op 6060.00 MB/s ...
//
// Configuration lines describe the machine and, before each target's lines,
// the file system and its st_blksize.
func (r *results) writeBench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	m := r.Machine
	for _, kv := range [][2]string{
		{"goos", "linux"},
		{"goarch", m.Arch},
		{"cpu", m.CPUModel},
		{"pkg", modulePath + "/cmd/headbench"},
		{"nproc", fmt.Sprint(m.CPUs)},
		{"kernel", m.Kernel},
		{"go", m.Go},
		{"libc", m.Libc},
		{"date", r.Date.UTC().Format(time.RFC3339)},
		{"input-bytes", fmt.Sprint(r.Input.Bytes)},
		{"input-lines", fmt.Sprint(r.Input.Lines)},
		{"output", r.Output},
	} {
		writeConfig(bw, kv[0], kv[1])
	}
	runs := map[string][]runRecord{}
	for _, run := range r.Runs {
		runs[run.Bench] = append(runs[run.Bench], run)
	}
	for _, t := range r.Targets {
		fmt.Fprintln(bw)
		writeConfig(bw, "fs", t.Name)
		writeConfig(bw, "fs-type", t.FSType)
		writeConfig(bw, "st-blksize", fmt.Sprint(t.Blksize))
		for _, f := range r.figuresOn(t.Name, kindPolicy, kindSweep, kindPeer) {
			for _, run := range runs[f.Bench] {
				if run.Err != "" {
					continue
				}
				fmt.Fprintf(bw, "%s 1 %d ns/op %.2f MB/s %d user-ns/op %d sys-ns/op %d maxrss-B\n",
					f.Bench, run.Wall.Nanoseconds(), throughput(r.Input.Bytes, run.Wall),
					run.User.Nanoseconds(), run.Sys.Nanoseconds(), run.MaxRSS)
			}
		}
	}
	return bw.Flush()
}

// writeConfig writes a configuration line; the value loses any newline,
// which the format forbids.
func writeConfig(w io.Writer, key, value string) {
	fmt.Fprintf(w, "%s: %s\n", key, strings.ReplaceAll(value, "\n", " "))
}
