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
	// 128 KiB, which sped a getdelim/fwrite loop on ZFS, while the 512 KiB
	// to 4 MiB that NFS, CIFS and CephFS report was judged "a lot for an
	// iostream". Past 128 KiB the syscall count stops mattering: getdelim
	// --loop runs no faster with 1 MiB buffers (cmd/headbench measures it
	// on XFS with st_blksize 128 KiB; its results are in bench/results).
	maxBlksizeBuffer = 128 << 10

	// coreutilsIOBufsize is coreutils' IO_BUFSIZE (src/ioblksize.h): the
	// smallest buffer at which syscall overhead stopped mattering on all
	// the systems of its dd sweep.
	coreutilsIOBufsize = 256 << 10

	// cpythonMinBuffer is CPython's io.DEFAULT_BUFFER_SIZE since 3.14,
	// 128 KiB (cpython#117151): the floor of open()'s rule, and its size
	// when st_blksize is 1 or less.
	cpythonMinBuffer = 128 << 10

	// cpythonMaxBuffer is the cap of CPython 3.14's open() rule,
	// max(min(st_blksize, 8192 * 1024), DEFAULT_BUFFER_SIZE)
	// (Lib/_pyio.py and Modules/_io/_iomodule.c, cpython#117151).
	cpythonMaxBuffer = 8192 * 1024

	// rustBufSize is Rust std's DEFAULT_BUF_SIZE, 8 * 1024, the capacity
	// BufReader::new and BufWriter::new give (library/std/src/sys/io).
	rustBufSize = 8 << 10

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
// file such as those in /proc that reports size 0), but never below
// bufio's 4096. A buffer larger than the file would only cost memory.
type Policy int

// The named policies. See the package documentation for a table.
const (
	// PolicyDefault resolves, when a buffer is allocated, to the policy
	// given to SetDefaultPolicy, else the one named by the environment
	// variable STDIOBUF_POLICY, else PolicyBlksize.
	PolicyDefault Policy = 0
	// PolicyBlksize is min(st_blksize, 128 KiB), at least bufio's 4096
	// and rounded up to a power of two; 8192 if fstat fails or st_blksize
	// <= 0. Terminals are line buffered.
	PolicyBlksize Policy = -1
	// PolicyBufsiz is glibc's rule since 2.25, exactly: min(st_blksize,
	// 8192), so 1024 where st_blksize is 1024; 8192 if fstat fails or
	// st_blksize <= 0. Terminals are line buffered.
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
	// PolicyCpython is CPython 3.14's open(): max(min(st_blksize,
	// 8 MiB), 128 KiB); 128 KiB if fstat fails or st_blksize <= 1.
	// Terminals are line buffered, as CPython's text files on a tty.
	PolicyCpython Policy = -6
	// PolicyRust is Rust's BufReader and BufWriter: 8 KiB whatever fstat
	// says, and no terminal rule (a Rust program's files are never line
	// buffered; only its standard output is, as a LineWriter, which this
	// policy does not imitate). Standard error stays unbuffered, as
	// Rust's is.
	PolicyRust Policy = -7
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
// policy: blksize, bufsiz, coreutils, bufio, readahead, cpython, rust,
// readahead:SIZE, or a size such as 65536 or 64K.
const policyEnv = "STDIOBUF_POLICY"

// policyForms is what ParsePolicy accepts, for error messages.
const policyForms = "want blksize, bufsiz, coreutils, bufio, readahead, cpython, rust, readahead:SIZE, default or a size such as 65536 or 64K"

// policyNames are the named policies' names, policy -p at index p.
var policyNames = [...]string{"default", "blksize", "bufsiz", "coreutils", "bufio", "readahead", "cpython", "rust"}

// String returns the policy's name as ParsePolicy reads it: "blksize",
// "bufsiz", "coreutils", "bufio", "readahead", "cpython", "rust",
// "default", a byte count such as "65536", or "readahead:65536". An
// invalid policy prints as "Policy(-9)".
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
// readahead, cpython, rust or default, in any case), a size: a decimal
// byte count with an optional suffix K, KiB (1024), KB (1000), M, MiB, MB,
// G, GiB or GB, at most 1 GiB, or readahead:SIZE (ReadaheadSize).
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
// st (nil when fstat failed), and the rule that gave it. p must be
// resolved (not PolicyDefault).
func (p Policy) size(st *fileStat) (size int, why reason) {
	if p > 0 {
		return int(p), reason{size: sizeFixed}
	}
	if n, sized := p.aheadSize(); sized {
		return n, reason{size: sizeFixed}
	}
	switch p {
	case PolicyBufio:
		return bufioSize, reason{size: sizeBufio}
	case PolicyRust:
		return rustBufSize, reason{size: sizeRust}
	}
	var blksize int64
	if st != nil {
		blksize = st.blksize
	}
	why.blksize = blksize
	switch {
	case p == PolicyCpython:
		why.size = sizeCpython
		return cpythonSize(blksize), why
	case p == PolicyCoreutils:
		why.size = sizeCoreutils
		return coreutilsBlksize(blksize, st != nil && st.regular), why
	case st == nil:
		return glibcBUFSIZ, reason{size: sizeFstatFailed}
	case blksize <= 0:
		why.size = sizeNoBlksize
		return glibcBUFSIZ, why
	}
	if p == PolicyBufsiz {
		if blksize > glibcBUFSIZ {
			why.size, why.bound = sizeCapped, glibcBUFSIZ
			return glibcBUFSIZ, why
		}
		why.size = sizeBlksize
		return int(blksize), why
	}
	rule := blksizeRule(blksize)
	why.bound = rule
	switch {
	case rule == blksize:
		why.size = sizeBlksize
	case blksize > maxBlksizeBuffer:
		why.size = sizeCapped
	case blksize < bufioSize:
		why.size = sizeRaised
	default:
		why.size = sizeRounded
	}
	return int(rule), why
}

// blksizeRule is PolicyBlksize's size for a positive st_blksize: at most
// 128 KiB, at least bufio's 4096 (a drop-in for bufio is never given a
// smaller buffer than bufio's: ext4 made with -b 1024 reports 1024, WSL1
// 512), and a power of two, rounded up as coreutils' io_blksize rounds
// ZFS's odd sizes. The result is a power of two from 4096 to 128 KiB.
func blksizeRule(blksize int64) int64 {
	switch {
	case blksize >= maxBlksizeBuffer:
		return maxBlksizeBuffer
	case blksize <= bufioSize:
		return bufioSize
	}
	size := int64(bufioSize)
	for size < blksize {
		size <<= 1
	}
	return size
}

// fileCap is the most a Reader's buffer can usefully hold of the regular
// file st describes: st_size rounded up to whole st_blksize blocks (of
// BUFSIZ where the platform gives no block size: Windows, wasip1), at
// least one block (a file in /proc reports size 0 and still has data), and
// at least bufio's 4096, so that a small st_blksize never makes a capped
// buffer smaller than bufio's. ok is false when the file is not regular.
func fileCap(st *fileStat) (limit int, ok bool) {
	if st == nil || !st.regular {
		return 0, false
	}
	block := st.blksize
	if block <= 0 {
		block = glibcBUFSIZ
	}
	blocks := max((st.size+block-1)/block, 1)
	if blocks > maxBufferSize/block {
		return 0, false // larger than any buffer a policy gives
	}
	return max(int(blocks*block), bufioSize), true
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

// cpythonSize is CPython 3.14's open(): st_blksize kept between 128 KiB
// and 8 MiB, where st_blksize <= 1 (or a failed fstat, blksize 0) counts
// as 128 KiB.
func cpythonSize(blksize int64) int {
	return int(max(min(blksize, cpythonMaxBuffer), cpythonMinBuffer))
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

// builtinPolicy is the default policy built into the program, as
// ParsePolicy reads it: "" (blksize) in package stream; `stdiobuf build
// -policy NAME` sets it in the bufio it generates.
const builtinPolicy = ""

// defaultPolicy is the policy SetDefaultPolicy set, else $STDIOBUF_POLICY,
// else the built-in one, also when the variable does not parse (which is
// reported once on standard error).
func defaultPolicy() Policy {
	if p := Policy(processDefault.Load()); p != PolicyDefault {
		return p
	}
	v, ok := syscall.Getenv(policyEnv)
	if !ok || v == "" {
		return builtinDefault()
	}
	p, err := ParsePolicy(v)
	if err != nil {
		warnEnv(policyEnv, v, policyForms+"; using "+builtinDefault().String())
		return builtinDefault()
	}
	if p == PolicyDefault {
		// STDIOBUF_POLICY=default: the built-in default; a decided
		// stream never reports PolicyDefault.
		return builtinDefault()
	}
	return p
}

// builtinDefault is builtinPolicy, PolicyBlksize if it is "" or default.
func builtinDefault() Policy {
	if builtinPolicy == "" {
		return PolicyBlksize
	}
	if p, err := ParsePolicy(builtinPolicy); err == nil && p != PolicyDefault {
		return p
	}
	return PolicyBlksize
}
