//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/streamstats"
)

// counts are the system calls one run of a figure made, from getdelim's
// --stats=json or from strace -f.
type counts struct {
	Source string `json:"source"` // "getdelim --stats=json" or "strace -f"
	Reads  int64  `json:"reads"`
	Writes int64  `json:"writes"`
	// Kernel counts copy_file_range, sendfile and splice calls.
	Kernel int64 `json:"kernel"`
	// In and Out are the streams getdelim reported; nil for a peer.
	In  *streamstats.Stream `json:"in,omitempty"`
	Out *streamstats.Stream `json:"out,omitempty"`
	// ReadSize and WriteSize are a peer's buffer sizes as its calls show
	// them: the size most of its reads and writes asked for.
	ReadSize  int64 `json:"read_size,omitempty"`
	WriteSize int64 `json:"write_size,omitempty"`
}

// readaheadBuffers is how many buffers of the input's size a Reader reads
// ahead into besides its own (stream/readahead.go, aheadChunks).
const readaheadBuffers = 4

// buffers returns the bytes of the input and output buffers the counts
// show, or 0 when they show none. A getdelim Reader that read ahead holds
// readaheadBuffers more of its size.
func (c *counts) buffers() int64 {
	switch {
	case c == nil:
		return 0
	case c.In != nil && c.Out != nil:
		in := int64(c.In.Size)
		if c.In.Ahead+c.In.Overlapped+c.In.Waited > 0 {
			in *= 1 + readaheadBuffers
		}
		return in + int64(c.Out.Size)
	}
	return c.ReadSize + c.WriteSize
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

// straceCommand returns the command line that runs argv under strace and
// writes the trace of its reads and writes to the file out.
func straceCommand(strace, out string, argv ...string) []string {
	return append([]string{strace, "-f", "-qq", "-e", "signal=none", "-s", "0",
		"-e", "trace=read,readv,write,writev,copy_file_range,sendfile,splice", "-o", out, "--"}, argv...)
}

// straceCall matches a call in the trace of straceCommand, after the
// process ID:
//
//	read(0, ""..., 8192)                    = 8192
//	write(1, ""..., 4096 <unfinished ...>
//	<... write resumed>)                    = 4096
//
// Its groups are the call's name and, when the line has them, its size
// argument (the last).
var straceCall = regexp.MustCompile(`^(\w+)\((?:.*, (\d+)(?:\)| <unfinished))?`)

// parseStraceTrace counts the calls in a trace of straceCommand: a call
// is counted on the line that starts it; the lines that resume one are not
// calls. ReadSize and WriteSize are the size most read
// and write calls asked for: the buffer size of a program that reads and
// writes whole buffers (a few other calls, such as the dynamic loader's,
// ask for other sizes).
func parseStraceTrace(trace string) (counts, error) {
	c := counts{Source: "strace -f"}
	reads, writes := map[int64]int64{}, map[int64]int64{}
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		line := sc.Text()
		if _, rest, ok := strings.Cut(line, " "); ok && isDigits(line[:len(line)-len(rest)-1]) {
			line = strings.TrimLeft(rest, " ")
		}
		if line == "" || strings.HasPrefix(line, "<...") {
			continue
		}
		m := straceCall.FindStringSubmatch(line)
		if m == nil {
			return counts{}, fmt.Errorf("strace: unexpected line %q", clip(sc.Text(), 200))
		}
		size, _ := strconv.ParseInt(m[2], 10, 64)
		switch m[1] {
		case "read":
			reads[size]++
			c.Reads++
		case "readv":
			c.Reads++
		case "write":
			writes[size]++
			c.Writes++
		case "writev":
			c.Writes++
		case "copy_file_range", "sendfile", "splice":
			c.Kernel++
		default:
			return counts{}, fmt.Errorf("strace: unexpected call %q", clip(sc.Text(), 200))
		}
	}
	if err := sc.Err(); err != nil {
		return counts{}, err
	}
	if c.Reads+c.Writes+c.Kernel == 0 {
		return counts{}, fmt.Errorf("strace: no read or write in %q", clip(trace, 400))
	}
	c.ReadSize, c.WriteSize = mode(reads), mode(writes)
	return c, nil
}

// mode returns the key with the highest count, the larger on a tie; 0 for
// none.
func mode(n map[int64]int64) int64 {
	var best int64
	for k, v := range n {
		if v > n[best] || v == n[best] && k > best {
			best = k
		}
	}
	return best
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
