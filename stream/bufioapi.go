package stream

import "bufio"

// This file is the only one in the package that imports bufio. It holds
// the names that must be bufio's very own for the two packages to mix: a
// program that compares an error with bufio's, or passes a split function
// written for bufio, keeps working after it switches its import to
// stream. cmd/stdiobuf, which compiles this package as the standard
// library's bufio, replaces this file with bufio's own declarations of
// the same names, taken from the toolchain that compiles, so every name
// declared here must also be declared by bufio.

// Errors returned by a Reader or Writer: bufio's own values.
var (
	ErrInvalidUnreadByte = bufio.ErrInvalidUnreadByte
	ErrInvalidUnreadRune = bufio.ErrInvalidUnreadRune
	ErrBufferFull        = bufio.ErrBufferFull
	ErrNegativeCount     = bufio.ErrNegativeCount
)

// Errors returned by a Scanner: bufio's own values.
var (
	ErrTooLong         = bufio.ErrTooLong
	ErrNegativeAdvance = bufio.ErrNegativeAdvance
	ErrAdvanceTooFar   = bufio.ErrAdvanceTooFar
	ErrBadReadCount    = bufio.ErrBadReadCount
)

// ErrFinalToken is bufio's special sentinel error value: a split function
// returns it with a token to end the scan after that token, and Scan then
// returns true for the token and stops without an error.
var ErrFinalToken = bufio.ErrFinalToken

// MaxScanTokenSize is the maximum size used to buffer a token unless the
// user provides an explicit buffer with Scanner.Buffer. It is bufio's.
const MaxScanTokenSize = bufio.MaxScanTokenSize

// SplitFunc is bufio's SplitFunc: split functions written for bufio work
// here unchanged, and this package's work with bufio.
type SplitFunc = bufio.SplitFunc
