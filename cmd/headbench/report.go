//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The files a run writes to its output folder.
const (
	fileMarkdown = "results.md"
	fileJSON     = "results.json"
	fileBench    = "bench.txt"
	fileSweep    = "sweep.svg"
	fileBars     = "throughput.svg"
)

// writeReports writes every report to dir and the summary to standard
// output. A file that cannot be written (no room) is reported and the others
// are still written; with no folder at all, the whole of results.md goes to
// standard output so that the run is not lost.
func (s *session) writeReports(dir string, r *results) {
	reports := []struct {
		name  string
		write func(io.Writer) error
	}{
		{fileMarkdown, r.writeMarkdown},
		{fileJSON, r.writeJSON},
		{fileBench, r.writeBench},
		{fileBars, r.writeBarsSVG},
	}
	if r.hasKind(kindSweep) {
		reports = append(reports, struct {
			name  string
			write func(io.Writer) error
		}{fileSweep, r.writeSweepSVG})
	}
	mdWritten := false
	if dir != "" {
		for _, rep := range reports {
			path := filepath.Join(dir, rep.name)
			if err := writeFile(path, rep.write); err != nil {
				s.note(true, "writing %s: %v", path, err)
				continue
			}
			mdWritten = mdWritten || rep.name == fileMarkdown
		}
	}
	if !mdWritten {
		r.writeMarkdown(s.out)
		return
	}
	var sum bytes.Buffer
	r.writeSummary(&sum)
	fmt.Fprintf(s.out, "%s\nresults in %s/: %s, %s, %s (for benchstat), %s", sum.String(), dir, fileMarkdown, fileJSON, fileBench, fileBars)
	if r.hasKind(kindSweep) {
		fmt.Fprintf(s.out, ", %s", fileSweep)
	}
	fmt.Fprintln(s.out)
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
