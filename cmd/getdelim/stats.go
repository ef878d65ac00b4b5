package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/stdiobuf/stdiobuf/internal/streamstats"
	"github.com/stdiobuf/stdiobuf/stream"
)

// writeStats writes --stats' report of each input stream and of standard
// output to w: a "PROG: stats: in: ..." line per input and an out line,
// or with asJSON one line of JSON, which headbench decodes.
func writeStats(w io.Writer, prog string, asJSON bool, inputs []stream.Info, out stream.Info) {
	if !asJSON {
		for _, info := range inputs {
			fmt.Fprintf(w, "%s: stats: in: %s\n", prog, info)
		}
		fmt.Fprintf(w, "%s: stats: out: %s\n", prog, out)
		return
	}
	r := streamstats.Report{In: make([]streamstats.Stream, len(inputs)), Out: streamstats.FromInfo(out)}
	for i, info := range inputs {
		r.In[i] = streamstats.FromInfo(info)
	}
	// Encode ends the line. It cannot fail on these types, and a failed
	// write to standard error has nowhere to be reported.
	json.NewEncoder(w).Encode(r)
}
