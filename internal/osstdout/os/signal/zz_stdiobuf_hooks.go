//go:build stdiobuf_std

// This file is added to package os/signal by `stdiobuf build -stdout`:
// the statement the generator inserts first in process (internal/osstdout's
// insertions), which hands a signal to the channels Notify gave, calls
// package os's stdioPeerHeard, so that what the signal's sender changed
// in a file before sending it is read fresh (-files).

package signal

import _ "unsafe" // for go:linkname

// stdioPeerHeard is package os's.
//
//go:linkname stdioPeerHeard os.stdioPeerHeard
func stdioPeerHeard()
