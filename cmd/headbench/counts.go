//go:build linux

package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// counts are the system calls one run of a figure made, from getdelim's
// --stats or from strace -c -f.
type counts struct {
	Source string `json:"source"` // "getdelim --stats" or "strace -c -f"
	Reads  int64  `json:"reads"`
	Writes int64  `json:"writes"`
	// Kernel counts copy_file_range, sendfile and splice calls.
	Kernel int64 `json:"kernel"`
	// In and Out are the streams getdelim reported; nil for a peer.
	In  *streamStats `json:"in,omitempty"`
	Out *streamStats `json:"out,omitempty"`
}

// streamStats is one line of getdelim --stats:
//
//	getdelim: stats: in: fd=0 mode=full size=131072 policy=blksize blksize=131072 reads=1758 writes=0 kernel=0 reason="st_blksize 131072"
type streamStats struct {
	Fd      int64  `json:"fd"`
	Mode    string `json:"mode"`
	Size    int64  `json:"size"`
	Policy  string `json:"policy"`
	Blksize int64  `json:"blksize"`
	Reads   int64  `json:"reads"`
	Writes  int64  `json:"writes"`
	Kernel  int64  `json:"kernel"`
	Reason  string `json:"reason"`
}

// parseGetdelimStats reads the --stats lines in getdelim's standard error
// ("PROGRAM: stats: STREAM: FIELDS", PROGRAM being the name getdelim was
// run by) and returns the counts: reads of the "in" stream, writes of the
// "out" stream, kernel copies of both. Other lines and unknown fields are
// ignored, so getdelim may add fields; both streams must be present.
func parseGetdelimStats(stderr string) (counts, error) {
	c := counts{Source: "getdelim --stats"}
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		prog, rest, ok := strings.Cut(sc.Text(), ": stats: ")
		if !ok || prog == "" || strings.ContainsRune(prog, ' ') {
			continue
		}
		stream, fields, ok := strings.Cut(rest, ": ")
		if !ok {
			return counts{}, fmt.Errorf("getdelim --stats: no stream name in %q", sc.Text())
		}
		st, err := parseStreamStats(fields)
		if err != nil {
			return counts{}, fmt.Errorf("getdelim --stats: %v in %q", err, sc.Text())
		}
		switch stream {
		case "in":
			c.In = &st
		case "out":
			c.Out = &st
		}
	}
	if c.In == nil || c.Out == nil {
		return counts{}, fmt.Errorf("getdelim --stats: want an in and an out line, got standard error %q", clip(stderr, 400))
	}
	c.Reads = c.In.Reads + c.Out.Reads
	c.Writes = c.In.Writes + c.Out.Writes
	c.Kernel = c.In.Kernel + c.Out.Kernel
	return c, nil
}

// parseStreamStats parses space-separated key=value fields; a value may be
// a Go-quoted string (reason="st_blksize 131072").
func parseStreamStats(s string) (streamStats, error) {
	var st streamStats
	ints := map[string]*int64{
		"fd": &st.Fd, "size": &st.Size, "blksize": &st.Blksize,
		"reads": &st.Reads, "writes": &st.Writes, "kernel": &st.Kernel,
	}
	strs := map[string]*string{"mode": &st.Mode, "policy": &st.Policy, "reason": &st.Reason}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeft(s, " ") {
		key, rest, ok := strings.Cut(s, "=")
		if !ok || key == "" || strings.ContainsRune(key, ' ') {
			return st, fmt.Errorf("field %q is not key=value", strings.Fields(s)[0])
		}
		var val string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return st, fmt.Errorf("bad quoted value of %s", key)
			}
			val, _ = strconv.Unquote(q)
			s = rest[len(q):]
		} else {
			val, s, _ = strings.Cut(rest, " ")
		}
		switch {
		case ints[key] != nil:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return st, fmt.Errorf("%s=%s is not an integer", key, val)
			}
			*ints[key] = n
		case strs[key] != nil:
			*strs[key] = val
		}
	}
	return st, nil
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
