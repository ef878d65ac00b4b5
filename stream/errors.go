package stream

import "errors"

// Errors of this package's own additions.
var (
	// ErrInvalidMode is returned by Setvbuf for a mode other than
	// FullyBuffered, LineBuffered or Unbuffered.
	ErrInvalidMode = errors.New("stream: invalid buffering mode")
	// ErrInvalidSize is returned by Setvbuf for a negative size.
	ErrInvalidSize = errors.New("stream: invalid buffer size")
	// ErrInvalidPolicy is returned by ParsePolicy for text that names no
	// policy and no size from 1 byte to 1 GiB, and by SetPolicy and
	// SetDefaultPolicy for a Policy that is neither a named policy nor a
	// positive size.
	ErrInvalidPolicy = errors.New("stream: invalid policy")
)

// A detailError is one of the package's errors with what was wrong added:
// "stream: invalid policy \"bogus\": want ...". It wraps the error, so
// errors.Is finds it.
type detailError struct {
	err    error
	detail string
}

func (e *detailError) Error() string { return e.err.Error() + " " + e.detail }
func (e *detailError) Unwrap() error { return e.err }

var (
	errNegativeRead  = errors.New("stream: reader returned negative count from Read")
	errNegativeWrite = errors.New("stream: writer returned negative count from Write")
)
