package reads

import (
	"io"
	"os"
)

var _ = []any{members, headers}

// An archive's member headers: a Seek to the next member before every
// read, random access a bufio.Reader would drop at each Seek.
func members(f *os.File) error {
	off := int64(8)
	for {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return err
		}
		var hdr [60]byte
		if _, err := io.ReadFull(f, hdr[:]); err != nil {
			return err
		}
		off += 60 + int64(hdr[0])
	}
}

// A Seek of another file leaves the reads of f sequential: per record.
func headers(f, index *os.File) error {
	for {
		if _, err := index.Seek(0, io.SeekStart); err != nil {
			return err
		}
		var hdr [60]byte
		if _, err := io.ReadFull(f, hdr[:]); err != nil { // want `^io.ReadFull in a loop reads f unbuffered`
			return err
		}
	}
}
