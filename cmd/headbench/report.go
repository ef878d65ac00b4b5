//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The files a run writes to its output folder.
const (
	fileMarkdown = "results.md"
	fileJSON     = "results.json"
	fileBench    = "bench.txt"
	fileSweep    = "sweep.svg"
	fileBars     = "throughput.svg"
	fileRules    = "rules.svg"
)

// writeReports writes every report to dir and the summary to standard
// output. A file that cannot be written (no room) is reported and the others
// are still written; with no folder at all, the whole of results.md goes to
// standard output so that the run is not lost.
func (s *session) writeReports(dir string, r *results) {
	mdWritten := false
	if dir != "" {
		for _, rep := range r.reports() {
			path := filepath.Join(dir, rep.name)
			if err := writeFile(path, rep.write); err != nil {
				s.note(true, "writing %s: %v", path, err)
				continue
			}
			mdWritten = mdWritten || rep.name == fileMarkdown
		}
	}
	if mdWritten {
		r.writeTerminal(s.out, dir)
	} else {
		r.writeMarkdown(s.out)
	}
	// Last, where a reader of the terminal sees them.
	for _, w := range r.Warnings {
		fmt.Fprintf(s.out, "headbench: warning: %s\n", w)
	}
}

// report is a file of the output folder and what writes it.
type report struct {
	name  string
	write func(io.Writer) error
}

// reports returns the files a run writes: the charts of the rules and the
// sweep only when it has their figures.
func (r *results) reports() []report {
	reps := []report{{fileMarkdown, r.writeMarkdown}, {fileJSON, r.writeJSON}, {fileBench, r.writeBench}, {fileBars, r.writeBarsSVG}}
	if r.hasKind(kindPolicy) {
		reps = append(reps, report{fileRules, r.writeRulesSVG})
	}
	if r.hasKind(kindSweep) {
		reps = append(reps, report{fileSweep, r.writeSweepSVG})
	}
	return reps
}

// writeTerminal writes the summary a run ends with: the table across file
// systems, the headline and where the reports are.
func (r *results) writeTerminal(w io.Writer, dir string) {
	r.writeSummary(w)
	fmt.Fprintln(w)
	r.writeHeadline(w)
	var names []string
	for _, rep := range r.reports() {
		names = append(names, rep.name)
	}
	fmt.Fprintf(w, "\nresults in %s/: %s (%s is for benchstat)\n", dir, strings.Join(names, ", "), fileBench)
}

// writeFile writes path with write, removing it again if anything fails.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
