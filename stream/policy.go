package stream

import (
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// A policy is the rule that sizes a stream over a file descriptor from
// what fstat(2) says of it; the decision that applies it to one stream
// (with the terminal, standard-error, _STDBUF_ and Setvbuf rules on top)
// is in filedoalloc.go.
const (
	// bufioSize is bufio's default buffer size, used for every stream that
	// is not a file descriptor and by PolicyBufio.
	bufioSize = 4096

	// glibcBUFSIZ is glibc's BUFSIZ: the size glibc uses when fstat fails
	// or reports no block size, and the cap of its current rule.
	glibcBUFSIZ = 8192

	// maxBlksizeBuffer caps st_blksize under PolicyBlksize. It is the value
	// of the glibc patch proposal to size FILE buffers by st_blksize up to
	// 128 KiB: there a getdelim/fwrite loop ran 1.69x the speed of 8 KiB on
	// ZFS, while the 512 KiB to 4 MiB that NFS, CIFS and CephFS report was
	// judged "a lot for an iostream". Past 128 KiB the syscall count stops
	// mattering: getdelim --loop took 55.3 ms with 128 KiB buffers and 58.7
	// ms with 1 MiB (bench/results/2026-11-30-xfs, on XFS, st_blksize 128 KiB).
	maxBlksizeBuffer = 128 << 10

	// coreutilsIOBufsize is coreutils' IO_BUFSIZE (src/ioblksize.h): the
	// smallest buffer at which syscall overhead stopped
	// mattering on all 11 systems of its dd sweep.
	coreutilsIOBufsize = 256 << 10

	// maxBufferSize bounds sizes that come from the environment or from
	// ParsePolicy, so that a typo cannot ask for terabytes.
	maxBufferSize = 1 << 30

	// minReadBufferSize is bufio's minimum reader size: ReadRune and
	// UnreadRune need a few bytes of room.
	minReadBufferSize = 16
)

// A Policy decides the buffer size of a stream over a file descriptor
// (and, with the terminal check, its mode). A positive Policy is a fixed
// size in bytes, as setvbuf with a size; the named policies are the
// negative constants. The zero Policy, PolicyDefault, stands for the
// process default: the policy given to SetDefaultPolicy, else
// $STDIOBUF_POLICY if it is set and valid, else PolicyBlksize.
//
// Under every policy a Reader over a regular file gets no more buffer
// than the file can fill: its size is capped at st_size rounded up to a
// whole number of st_blksize blocks (one block for an empty file, or a
// file such as those in /proc that reports size 0), and at least 16
// bytes. A buffer larger than the file would only cost memory.
type Policy int

// The named policies. See the package documentation for a table.
const (
	// PolicyDefault resolves, when a buffer is allocated, to the policy
	// given to SetDefaultPolicy, else the one named by the environment
	// variable STDIOBUF_POLICY, else PolicyBlksize.
	PolicyDefault Policy = 0
	// PolicyBlksize is min(st_blksize, 128 KiB); 8192 if fstat fails or
	// st_blksize <= 0. Terminals are line buffered.
	PolicyBlksize Policy = -1
	// PolicyBufsiz is glibc's rule since 2.25: min(st_blksize, 8192);
	// 8192 if fstat fails. Terminals are line buffered.
	PolicyBufsiz Policy = -2
	// PolicyCoreutils is coreutils' io_blksize(): the smallest multiple
	// of st_blksize that is at least 256 KiB, rounded up to a power of two
	// for regular files. Terminals are line buffered.
	PolicyCoreutils Policy = -3
	// PolicyBufio is Go's bufio: 4096 bytes, never line buffered, and no
	// special case for standard error.
	PolicyBufio Policy = -4
	// PolicyReadahead is PolicyBlksize's sizes and modes, and a fully
	// buffered Reader over an *os.File that is a regular file or a block
	// device reads ahead: up to four buffers of the same size are read at
	// their offsets (pread), by a goroutine and by the Reader itself while
	// the one it needs is under way, while the caller works on the buffer
	// it has (readahead.go). The file's offset stays where a plain
	// Reader's would be, so Sync, Reset and the owner's Seek behave as
	// without it; bytes rewritten in place after they were read ahead
	// come back as they were for up to four buffers past the current one
	// (bufio's window is its one buffer). Pipes, sockets, terminals and
	// character devices, empty files and files of proc, sysfs, debugfs or
	// FUSE are read as without it, and so are line-buffered and unbuffered
	// Readers (terminals, stdbuf -i0, Setvbuf), buffers under 32 KiB
	// (st_blksize 4096 on ext4, NewReaderSize's small sizes), where it
	// does not pay, and every Reader when GOMAXPROCS is 1; a Writer under
	// it is a PolicyBlksize Writer. ReadaheadSize(n) ("readahead:64K")
	// reads ahead with buffers of n bytes, whatever n is.
	PolicyReadahead Policy = -5
)

// aheadSized is ReadaheadSize(1); ReadaheadSize(n) is aheadSized-n+1.
// Policy is an int, 32 bits on some platforms, and sizes go up to 1 GiB:
// the range lies far below the named policies, so that small negative
// values stay invalid, and above math.MinInt32+2.
const aheadSized Policy = -maxBufferSize + 2

// ReadaheadSize returns the policy of read-ahead (PolicyReadahead) with
// buffers of size bytes, what ParsePolicy reads as "readahead:SIZE". A
// size outside 1 to 1 GiB gives an invalid Policy, which SetPolicy and
// NewReaderPolicy refuse.
func ReadaheadSize(size int) Policy {
	if size <= 0 || size > maxBufferSize {
		return aheadSized - maxBufferSize - 1
	}
	return aheadSized - Policy(size) + 1
}

// aheadSize returns the size of a ReadaheadSize policy, or false.
func (p Policy) aheadSize() (int, bool) {
	if p <= aheadSized && p > aheadSized-maxBufferSize {
		return int(aheadSized - p + 1), true
	}
	return 0, false
}

// policyEnv is the environment variable that sets the process default
// policy: blksize, bufsiz, coreutils, bufio, readahead, readahead:SIZE,
// or a size such as 65536 or 64K.
const policyEnv = "STDIOBUF_POLICY"

// policyForms is what ParsePolicy accepts, for error messages.
const policyForms = "want blksize, bufsiz, coreutils, bufio, readahead, readahead:SIZE, default or a size such as 65536 or 64K"

var policyNames = [...]string{"default", "blksize", "bufsiz", "coreutils", "bufio", "readahead"}

// String returns the policy's name as ParsePolicy reads it: "blksize",
// "bufsiz", "coreutils", "bufio", "readahead", "default", a byte count such
// as "65536", or "readahead:65536". An invalid policy prints as
// "Policy(-9)".
func (p Policy) String() string {
	switch n, sized := p.aheadSize(); {
	case sized:
		return policyNames[-PolicyReadahead] + ":" + strconv.Itoa(n)
	case p > 0:
		return strconv.Itoa(int(p))
	case p > -Policy(len(policyNames)):
		return policyNames[-p]
	}
	return "Policy(" + strconv.Itoa(int(p)) + ")"
}

// valid reports whether p is one of the named policies or a size, or
// read-ahead with a size.
func (p Policy) valid() bool {
	_, sized := p.aheadSize()
	return p > -Policy(len(policyNames)) || sized
}

// ParsePolicy parses a policy name (blksize, bufsiz, coreutils, bufio,
// readahead or default, in any case), a size: a decimal byte count with an
// optional suffix K, KiB (1024), KB (1000), M, MiB, MB, G, GiB or GB, at
// most 1 GiB, or readahead:SIZE (ReadaheadSize).
// The error wraps ErrInvalidPolicy and names the text and what is
// accepted, or the 1 GiB cap for a size that is too big.
func ParsePolicy(s string) (Policy, error) {
	for i, name := range policyNames {
		if strings.EqualFold(s, name) {
			return Policy(-i), nil
		}
	}
	size, ahead := s, false
	if name, rest, ok := strings.Cut(s, ":"); ok && strings.EqualFold(name, policyNames[-PolicyReadahead]) {
		size, ahead = rest, true
	}
	n, why := parseSize(size)
	if why != "" {
		return 0, &detailError{ErrInvalidPolicy, strconv.Quote(s) + ": " + why}
	}
	if ahead {
		return ReadaheadSize(n), nil
	}
	return Policy(n), nil
}

// tooBig is why a size over maxBufferSize is refused.
const tooBig = "a size is at most 1 GiB (1073741824 bytes)"

// parseSize reads a positive byte count with an optional unit suffix. On
// failure it returns why, for the error message.
func parseSize(s string) (n int, why string) {
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 {
		return 0, policyForms
	}
	v, err := strconv.ParseInt(s[:digits], 10, 64)
	if err != nil {
		return 0, tooBig // only digits: ParseInt fails only by range
	}
	unit := int64(1)
	switch strings.ToUpper(s[digits:]) {
	case "":
	case "K", "KIB":
		unit = 1 << 10
	case "KB":
		unit = 1e3
	case "M", "MIB":
		unit = 1 << 20
	case "MB":
		unit = 1e6
	case "G", "GIB":
		unit = 1 << 30
	case "GB":
		unit = 1e9
	default:
		return 0, policyForms
	}
	switch {
	case v <= 0:
		return 0, "a size must be positive"
	case v > maxBufferSize/unit:
		return 0, tooBig
	}
	return int(v * unit), ""
}

// size is the buffer size p gives a descriptor for which fstat reported
// st (nil when fstat failed). p must be resolved (not PolicyDefault).
func (p Policy) size(st *fileStat) (size int, reason string) {
	if p > 0 {
		return int(p), "fixed size"
	}
	if n, sized := p.aheadSize(); sized {
		return n, "fixed size"
	}
	if p == PolicyBufio {
		return bufioSize, "bufio's 4096"
	}
	var blksize int64
	if st != nil {
		blksize = st.blksize
	}
	switch {
	case p == PolicyCoreutils:
		return coreutilsBlksize(blksize, st != nil && st.regular), "io_blksize(st_blksize " + itoa(blksize) + ")"
	case st == nil:
		return glibcBUFSIZ, "fstat failed: BUFSIZ"
	case blksize <= 0:
		return glibcBUFSIZ, "st_blksize " + itoa(blksize) + ": BUFSIZ"
	}
	limit := int64(maxBlksizeBuffer)
	if p == PolicyBufsiz {
		limit = glibcBUFSIZ
	}
	if blksize > limit {
		return int(limit), "st_blksize " + itoa(blksize) + " capped at " + itoa(limit)
	}
	return int(blksize), "st_blksize " + itoa(blksize)
}

// fileCap is the most a Reader's buffer can usefully hold of the regular
// file st describes: st_size rounded up to whole st_blksize blocks, at
// least one block (a file in /proc reports size 0 and still has data), and
// at least bufio's minimum. ok is false when the file is not regular.
func fileCap(st *fileStat) (limit int, ok bool) {
	if st == nil || !st.regular {
		return 0, false
	}
	block := max(st.blksize, 1)
	blocks := max((st.size+block-1)/block, 1)
	if blocks > maxBufferSize/block {
		return 0, false // larger than any buffer a policy gives
	}
	return max(int(blocks*block), minReadBufferSize), true
}

// itoa formats a number for a Reason.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// coreutilsBlksize is coreutils' io_blksize(): at least IO_BUFSIZE, a
// multiple of the block size, and a power of two for regular files.
func coreutilsBlksize(blksize int64, regular bool) int {
	if blksize <= 0 || blksize > maxBufferSize {
		blksize = coreutilsIOBufsize
	}
	size := (coreutilsIOBufsize + blksize - 1) / blksize * blksize
	if regular && size&(size-1) != 0 {
		p := int64(1)
		for p < size {
			p <<= 1
		}
		size = p
	}
	return int(size)
}

// processDefault is the policy SetDefaultPolicy set, PolicyDefault if
// none. Besides the standard streams it is the package's one piece of
// process state.
var processDefault atomic.Int64

// SetDefaultPolicy sets the process default policy: the one every stream
// created with PolicyDefault (NewReader, NewWriter, NewScanner, the
// standard streams) uses when it decides its buffer later, in place of
// $STDIOBUF_POLICY. SetDefaultPolicy(PolicyDefault) goes back to the
// environment. Streams already decided keep their decision. An invalid
// policy returns an error wrapping ErrInvalidPolicy and changes nothing.
// The default is the one piece of process state the package keeps besides
// the standard streams; it is safe to set from several goroutines.
func SetDefaultPolicy(p Policy) error {
	if !p.valid() {
		return p.invalid()
	}
	processDefault.Store(int64(p))
	return nil
}

// invalid is the error for a Policy value that is not valid.
func (p Policy) invalid() error {
	return &detailError{ErrInvalidPolicy, p.String() + ": " + policyForms}
}

// defaultPolicy is the policy SetDefaultPolicy set, else $STDIOBUF_POLICY,
// else PolicyBlksize, also when the variable does not parse (which is
// reported once on standard error).
func defaultPolicy() Policy {
	if p := Policy(processDefault.Load()); p != PolicyDefault {
		return p
	}
	v, ok := syscall.Getenv(policyEnv)
	if !ok || v == "" {
		return PolicyBlksize
	}
	p, err := ParsePolicy(v)
	if err != nil {
		warnEnv(policyEnv, v, policyForms+"; using blksize")
		return PolicyBlksize
	}
	if p == PolicyDefault {
		// STDIOBUF_POLICY=default: the default is blksize; a decided
		// stream never reports PolicyDefault.
		return PolicyBlksize
	}
	return p
}
