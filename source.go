// Package stdiobuf carries the source of package stream for
// cmd/stdiobuf, which generates from it the overlay that compiles stream
// as the standard library's bufio (see internal/overlay). The source is
// embedded so the generated bufio is always the stream this binary was
// built from, never a hand-kept copy.
package stdiobuf

import (
	"embed"
	"io/fs"
)

// The test files and internal/stdseam's doc.go are embedded too (a
// pattern cannot leave them out); the generator ignores them.
//
//go:embed stream/*.go internal/stdseam/*.go internal/osstdout/*.go internal/osstdout/std/*.go internal/osstdout/bufio/*.go internal/osstdout/runtime/*.go internal/osstdout/syscall/*.go internal/osstdout/files/*.go internal/osstdout/internal/poll/*.go internal/osstdout/fmt/*.go internal/osstdout/os/signal/*.go internal/osstdout/time/*.go
var source embed.FS

// Source returns stream's source files under stream/, the std twins of its
// platform seam under internal/stdseam/, and what `stdiobuf build -stdout`
// adds under internal/osstdout/.
func Source() fs.FS { return source }
