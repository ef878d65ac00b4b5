//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/streamstats"
)

// counts are the system calls one run of a figure made, from getdelim's
// --stats=json or from strace -c -f.
type counts struct {
	Source string `json:"source"` // "getdelim --stats=json" or "strace -c -f"
	Reads  int64  `json:"reads"`
	Writes int64  `json:"writes"`
	// Kernel counts copy_file_range, sendfile and splice calls.
	Kernel int64 `json:"kernel"`
	// In and Out are the streams getdelim reported; nil for a peer.
	In  *streamstats.Stream `json:"in,omitempty"`
	Out *streamstats.Stream `json:"out,omitempty"`
}

// parseGetdelimStats decodes the report of getdelim --stats=json, the last
// line of its standard error, for a run with one input, and returns the
// calls of both streams.
func parseGetdelimStats(stderr string) (counts, error) {
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	var r streamstats.Report
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		return counts{}, fmt.Errorf("getdelim --stats=json: %v in standard error %q", err, clip(stderr, 400))
	}
	if len(r.In) != 1 {
		return counts{}, fmt.Errorf("getdelim --stats=json: %d input streams, want 1, in %q", len(r.In), clip(stderr, 400))
	}
	in, out := r.In[0], r.Out
	return counts{
		Source: "getdelim --stats=json",
		Reads:  in.Reads + out.Reads, Writes: in.Writes + out.Writes, Kernel: in.Kernel + out.Kernel,
		In: &in, Out: &out,
	}, nil
}

// parseStraceSummary reads the table strace -c writes:
//
//	% time     seconds  usecs/call     calls    errors syscall
//	------ ----------- ----------- --------- --------- ----------------
//	 99.16    0.020398           0     28114           read
//	...
//	------ ----------- ----------- --------- --------- ----------------
//	100.00    0.020571           0     56400         3 total
//
// The calls column is the fourth; errors may be blank, so the syscall name
// is taken from the end of the line. pread64 is left out: only the dynamic
// loader uses it, to read ELF headers.
func parseStraceSummary(out string) (counts, error) {
	c := counts{Source: "strace -c -f"}
	sawHeader, sawTotal := false, false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "---") {
			continue
		}
		if f[0] == "%" {
			sawHeader = true
			continue
		}
		if !sawHeader || len(f) < 5 {
			continue
		}
		calls, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			return counts{}, fmt.Errorf("strace -c: bad calls column in %q", sc.Text())
		}
		switch f[len(f)-1] {
		case "read", "readv":
			c.Reads += calls
		case "write", "writev":
			c.Writes += calls
		case "copy_file_range", "sendfile", "splice":
			c.Kernel += calls
		case "total":
			sawTotal = true
		}
	}
	if !sawTotal {
		return counts{}, fmt.Errorf("strace -c: no summary table in %q", clip(out, 400))
	}
	return c, nil
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
