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

	// For the report (report.go): taken is the writes a Writer's caller
	// made, counted only while the report is on; bytes is what the reads
	// and writes counted in reads and writes moved.
	taken, bytes int64

	ahead, overlapped, waited int64 // read-ahead's reads (readahead.go)
}

// A reason is why a decision came out as it did: the rules that applied,
// with the numbers they used. Info formats it only when asked (String),
// so that deciding allocates nothing.
type reason struct {
	size     sizeRule // the rule that gave the size
	blksize  int64    // st_blksize as the size rule read it
	bound    int64    // what the rule capped, raised or rounded st_blksize to
	capped   bool     // a Reader's size was capped at the file's size in whole blocks
	fileSize int64    // st_size, when capped
	mode     modeRule // the rule that set the mode, if not the default
	env      string   // the _STDBUF_ setting that decided, as NAME=VALUE, when mode is modeStdbuf
	os       string   // why package os reads the file plainly, when mode is modeOS
}

// sizeRule is the rule that gave a stream its buffer size.
type sizeRule uint8

const (
	sizeUndecided     sizeRule = iota // no decision yet: no reason
	sizeNotDescriptor                 // bufio's 4096 for a stream that is not a descriptor
	sizeRequested                     // NewReaderSize, NewWriterSize
	sizeFixed                         // a Policy that is a size
	sizeBufio                         // PolicyBufio
	sizeRust                          // PolicyRust
	sizeCpython                       // PolicyCpython, from blksize
	sizeCoreutils                     // PolicyCoreutils, from blksize
	sizeFstatFailed                   // BUFSIZ
	sizeNoBlksize                     // st_blksize <= 0: BUFSIZ
	sizeBlksize                       // st_blksize itself
	sizeCapped                        // st_blksize capped at bound
	sizeRaised                        // st_blksize raised to bufio's bound
	sizeRounded                       // st_blksize rounded up to bound, a power of two
)

// modeRule is the rule that set a stream's mode, over the default of
// fully buffered.
type modeRule uint8

const (
	modeDefault  modeRule = iota // fully buffered
	modeStderr                   // standard error is unbuffered
	modeTerminal                 // a terminal is line buffered
	modeStdbuf                   // a _STDBUF_ variable (env)
	modeSetvbuf                  // Setvbuf, which also wins over the size
	modeOS                       // under -files, package os reads the file plainly though a buffer was decided (os)
)

// String formats r for Info.Reason, as "st_blksize 131072", "terminal:
// st_blksize 1024 raised to bufio's 4096" or "_STDBUF_O=L".
func (r reason) String() string {
	switch r.mode {
	case modeStdbuf:
		return r.env
	case modeSetvbuf:
		return "Setvbuf"
	case modeOS:
		return r.os
	}
	s := r.sizeString()
	if r.capped {
		s += ", capped at st_size " + itoa(r.fileSize) + " in whole blocks"
	}
	switch r.mode {
	case modeStderr:
		s = "standard error: " + s
	case modeTerminal:
		s = "terminal: " + s
	}
	return s
}

// sizeString formats the size rule of r.
func (r reason) sizeString() string {
	bs := "st_blksize " + itoa(r.blksize)
	switch r.size {
	case sizeNotDescriptor:
		return "not a descriptor: bufio's 4096"
	case sizeRequested:
		return "requested size"
	case sizeFixed:
		return "fixed size"
	case sizeBufio:
		return "bufio's 4096"
	case sizeRust:
		return "Rust's 8192"
	case sizeCpython:
		return "CPython's open(" + bs + ")"
	case sizeCoreutils:
		return "io_blksize(" + bs + ")"
	case sizeFstatFailed:
		return "fstat failed: BUFSIZ"
	case sizeNoBlksize:
		return bs + ": BUFSIZ"
	case sizeBlksize:
		return bs
	case sizeCapped:
		return bs + " capped at " + itoa(r.bound)
	case sizeRaised:
		return bs + " raised to bufio's " + itoa(r.bound)
	case sizeRounded:
		return bs + " rounded up to " + itoa(r.bound)
	}
	return ""
}
