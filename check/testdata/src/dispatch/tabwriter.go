package dispatch

import (
	"bufio"
	"fmt"
	"os"
	"text/tabwriter"
)

// A tabwriter over the file writes each cell by itself when flushed: a
// row per iteration costs a write per cell.
func tabulate(rows [][2]string) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1]) // want `^per-record write to os.Stdout: fmt.Fprintf \(tabwriter.go:15\) .*-stdout$`
	}
	tw.Flush()
}

// Over a bufio.Writer, or standard error: silent.
func tabulateQuiet(rows [][2]string) {
	bw := bufio.NewWriter(os.Stdout)
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	tw.Flush()
	bw.Flush()
	ew := tabwriter.NewWriter(os.Stderr, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(ew, "%s\t%s\n", r[0], r[1])
	}
	ew.Flush()
}
