package stream

import "errors"

// Errors of this package's own additions.
var (
	// ErrInvalidMode is returned by Setvbuf for a mode other than
	// FullyBuffered, LineBuffered or Unbuffered.
	ErrInvalidMode = errors.New("stream: invalid buffering mode")
	// ErrInvalidSize is returned by Setvbuf for a negative size, and by
	// ParsePolicy for a size that is zero, negative or too large.
	ErrInvalidSize = errors.New("stream: invalid buffer size")
	// ErrInvalidPolicy is returned by SetPolicy for a Policy that is
	// neither a named policy nor a positive size.
	ErrInvalidPolicy = errors.New("stream: invalid policy")
)

var (
	errNegativeRead  = errors.New("stream: reader returned negative count from Read")
	errNegativeWrite = errors.New("stream: writer returned negative count from Write")
)
