package stream

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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
	// of the glibc patch proposal (seed 002): 128 KiB gave a getdelim/fwrite
	// loop 1.69x the speed of 8 KiB on ZFS, while the 512 KiB to 4 MiB that
	// NFS, CIFS and CephFS report is "a lot for an iostream". Past 128 KiB
	// the syscall count stops mattering: dd bs=128K and bs=1M read a page-
	// cached 230 MB file in the same 9.4-10 ms here (anchors.md).
	maxBlksizeBuffer = 128 << 10

	// coreutilsIOBufsize is coreutils' IO_BUFSIZE (src/ioblksize.h, seed
	// 000): the smallest buffer at which syscall overhead stopped
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
// process default: $STDIOBUF_POLICY if it is set and valid, else
// PolicyBlksize.
type Policy int

// The named policies. See the package documentation for a table.
const (
	// PolicyDefault resolves, when a buffer is allocated, to the policy
	// named by the environment variable STDIOBUF_POLICY, or PolicyBlksize.
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
	// buffered Reader over an *os.File reads ahead: one read(2) into a
	// second buffer of the same size is in flight while the caller works
	// on the first (readahead.go). Line-buffered and unbuffered Readers
	// (terminals, stdbuf -i0, Setvbuf) never read ahead; a Writer under it
	// is a PolicyBlksize Writer. With NewReaderSize, or Setvbuf with a
	// size, it reads ahead with buffers of that size.
	PolicyReadahead Policy = -5
)

// PolicyEnv is the environment variable that sets the process default
// policy: blksize, bufsiz, coreutils, bufio, readahead, or a size such as
// 65536 or 64K.
const PolicyEnv = "STDIOBUF_POLICY"

var policyNames = [...]string{"default", "blksize", "bufsiz", "coreutils", "bufio", "readahead"}

// String returns the policy's name as ParsePolicy reads it: "blksize",
// "bufsiz", "coreutils", "bufio", "readahead", "default", or a byte count such as
// "65536". An invalid policy prints as "Policy(-9)".
func (p Policy) String() string {
	switch {
	case p > 0:
		return strconv.Itoa(int(p))
	case p > -Policy(len(policyNames)):
		return policyNames[-p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// valid reports whether p is one of the named policies or a size.
func (p Policy) valid() bool { return p > -Policy(len(policyNames)) }

// ParsePolicy parses a policy name (blksize, bufsiz, coreutils, bufio,
// readahead or default, in any case) or a size: a decimal byte count with an optional
// suffix K, KiB (1024), KB (1000), M, MiB, MB, G, GiB or GB, at most 1 GiB.
// The error names the text that did not parse.
func ParsePolicy(s string) (Policy, error) {
	for i, name := range policyNames {
		if strings.EqualFold(s, name) {
			return Policy(-i), nil
		}
	}
	n, err := parseSize(s)
	if err != nil {
		return 0, fmt.Errorf("stream: invalid policy %q: want blksize, bufsiz, coreutils, bufio, readahead or a size such as 65536 or 64K: %w", s, err)
	}
	return Policy(n), nil
}

// parseSize reads a positive byte count with an optional unit suffix.
func parseSize(s string) (int, error) {
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 {
		return 0, ErrInvalidSize
	}
	n, err := strconv.ParseInt(s[:digits], 10, 64)
	if err != nil {
		return 0, ErrInvalidSize
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
		return 0, ErrInvalidSize
	}
	if n <= 0 || n > maxBufferSize/unit {
		return 0, ErrInvalidSize
	}
	return int(n * unit), nil
}

// size is the buffer size p gives a descriptor for which fstat reported
// st (nil when fstat failed). p must be resolved (not PolicyDefault).
func (p Policy) size(st *fileStat) (size int, reason string) {
	if p > 0 {
		return int(p), "fixed size"
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
		return coreutilsBlksize(blksize, st != nil && st.regular), fmt.Sprintf("io_blksize(st_blksize %d)", blksize)
	case st == nil:
		return glibcBUFSIZ, "fstat failed: BUFSIZ"
	case blksize <= 0:
		return glibcBUFSIZ, fmt.Sprintf("st_blksize %d: BUFSIZ", blksize)
	}
	limit := int64(maxBlksizeBuffer)
	if p == PolicyBufsiz {
		limit = glibcBUFSIZ
	}
	if blksize > limit {
		return int(limit), fmt.Sprintf("st_blksize %d capped at %d", blksize, limit)
	}
	return int(blksize), fmt.Sprintf("st_blksize %d", blksize)
}

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

// defaultPolicy is $STDIOBUF_POLICY, or PolicyBlksize when it is unset or
// does not parse (which is reported once on standard error).
func defaultPolicy() Policy {
	v, ok := os.LookupEnv(PolicyEnv)
	if !ok || v == "" {
		return PolicyBlksize
	}
	p, err := ParsePolicy(v)
	if err != nil {
		warnEnv(PolicyEnv, v, "want blksize, bufsiz, coreutils, bufio, readahead or a size such as 65536 or 64K; using blksize")
		return PolicyBlksize
	}
	if p == PolicyDefault {
		// STDIOBUF_POLICY=default: the default is blksize; a decided
		// stream never reports PolicyDefault.
		return PolicyBlksize
	}
	return p
}
