package stream

import "strconv"

// Info is what a stream chose and what it has done: the answer to "why is
// this stream buffered like that?", for tools and tests to show.
type Info struct {
	Fd      int    // the descriptor underneath; -1 if none
	Mode    Mode   // FullyBuffered, LineBuffered or Unbuffered
	Size    int    // the buffer size in bytes
	Policy  Policy // the policy that applied (never PolicyDefault once decided)
	Blksize int64  // st_blksize as fstat reported it; 0 if no fstat
	Reason  string // why this mode and size, e.g. "st_blksize 131072" or "_STDBUF_O=L"
	Reads   int64  // Read calls made on the underlying reader
	Writes  int64  // Write calls made on the underlying writer
	Kernel  int64  // copy_file_range, sendfile and splice calls made

	// Read-ahead (PolicyReadahead): Ahead is the reads made ahead of the
	// caller (counted in Reads too); Overlapped is how many times the
	// caller found the next read done, Waited how many times it waited for
	// one, or made it itself because it had not started.
	Ahead      int64
	Overlapped int64
	Waited     int64
}

// String formats i as space-separated key=value fields, the reason quoted:
//
//	fd=0 mode=full size=131072 policy=blksize blksize=131072 reads=1758 writes=0 kernel=0 ahead=0 overlapped=0 waited=0 reason="st_blksize 131072"
func (i Info) String() string {
	return "fd=" + strconv.Itoa(i.Fd) + " mode=" + i.Mode.String() + " size=" + strconv.Itoa(i.Size) +
		" policy=" + i.Policy.String() + " blksize=" + itoa(i.Blksize) + " reads=" + itoa(i.Reads) +
		" writes=" + itoa(i.Writes) + " kernel=" + itoa(i.Kernel) +
		" ahead=" + itoa(i.Ahead) + " overlapped=" + itoa(i.Overlapped) + " waited=" + itoa(i.Waited) + " reason=" + strconv.Quote(i.Reason)
}

// counters counts the calls a stream makes on what it wraps; kernel counts
// copy_file_range, sendfile and splice calls (zerocopy_*.go).
type counters struct {
	reads, writes, kernel int64

	ahead, overlapped, waited int64 // read-ahead's reads (readahead.go)
}
