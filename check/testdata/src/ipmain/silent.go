package ipmain

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iplib"
	"os"
)

// Standard error is never buffered, by any flag.
func stderr(rows []iplib.Row) {
	iplib.Report(os.Stderr, rows)
	for _, r := range rows {
		iplib.WriteRow(os.Stderr, r)
	}
	w := iplib.NewWriter(os.Stderr)
	for _, r := range rows {
		w.Write(r)
	}
}

// A writer buffered on every path, and one that is not a file.
func buffered(rows []iplib.Row) error {
	bw := bufio.NewWriter(os.Stdout)
	iplib.Report(bw, rows)
	for _, r := range rows {
		iplib.WriteRow(bw, r)
	}
	var w io.Writer = bw
	for _, r := range rows {
		iplib.WriteRow(w, r)
	}
	var buf bytes.Buffer
	iplib.Report(&buf, rows)
	for _, r := range rows {
		iplib.WriteRow(&buf, r)
	}
	iplib.Buffered(os.Stdout, rows)
	iplib.Rebuffered(os.Stdout, rows)
	return bw.Flush()
}

// A whole table per call, flushed once.
func tables(tabs [][]iplib.Row) {
	for _, t := range tabs {
		iplib.Table(os.Stdout, t)
	}
}

// Writes in error branches of every form run per failure, or once.
func errorBranches(rows []iplib.Row, errs []error) {
	for i, err := range errs {
		if err != nil {
			iplib.WriteRow(os.Stdout, rows[i])
		}
		switch err.(type) {
		case *json.SyntaxError:
			iplib.WriteRow(os.Stdout, rows[i])
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			iplib.WriteRow(os.Stdout, rows[i])
		}
		if errors.Is(err, io.EOF) {
			iplib.WriteRow(os.Stdout, rows[i])
		}
		if i > len(rows) {
			iplib.WriteRow(os.Stdout, rows[i])
			return
		}
		if i == 7 {
			iplib.WriteRow(os.Stdout, rows[i])
			os.Exit(1)
		}
	}
}

// A writer that reports a failure for each record it is given.
func failures(rows []iplib.Row, errs []error) {
	for i := range rows {
		fail(os.Stdout, errs[i])
	}
}

func fail(w io.Writer, err error) {
	if err != nil {
		io.WriteString(w, err.Error())
	}
}
