// Package streamstats is the JSON form of `getdelim --stats=json`: what
// getdelim writes on standard error and headbench decodes, defined once so
// that the two cannot drift apart.
package streamstats

import "github.com/stdiobuf/stdiobuf/stream"

// Report is the whole of --stats=json: one JSON object on one line, the
// last line getdelim writes on standard error.
type Report struct {
	// In has one entry per input, in the order they were read.
	In  []Stream `json:"in"`
	Out Stream   `json:"out"`
}

// Stream is one stream's stream.Info, with the names and values of the
// text form (mode "full", "line" or "none"; policy as stream.ParsePolicy
// reads it).
type Stream struct {
	Fd      int    `json:"fd"`
	Mode    string `json:"mode"`
	Size    int    `json:"size"`
	Policy  string `json:"policy"`
	Blksize int64  `json:"blksize"`
	Reads   int64  `json:"reads"`
	Writes  int64  `json:"writes"`
	Kernel  int64  `json:"kernel"`
	Reason  string `json:"reason"`

	// Read-ahead's reads: started ahead, done when needed, waited for.
	Ahead      int64 `json:"ahead"`
	Overlapped int64 `json:"overlapped"`
	Waited     int64 `json:"waited"`
}

// FromInfo returns i as a Stream.
func FromInfo(i stream.Info) Stream {
	return Stream{
		Fd: i.Fd, Mode: i.Mode.String(), Size: i.Size, Policy: i.Policy.String(), Blksize: i.Blksize,
		Reads: i.Reads, Writes: i.Writes, Kernel: i.Kernel, Reason: i.Reason,
		Ahead: i.Ahead, Overlapped: i.Overlapped, Waited: i.Waited,
	}
}
