package stream

import (
	"errors"
	"io"
)

// Sync is glibc's fflush on an input stream: it hands the unread input
// back to the underlying reader so that another reader of the same
// descriptor (a child process, the next program in a shell group) starts
// just after the last byte this Reader returned. On a seekable input (an
// io.Seeker: a regular file, or a strings.Reader) it moves the offset back
// by the number of buffered bytes and drops them. On a pipe or a terminal,
// where that is impossible, it keeps them and returns nil, as glibc does.
// Any other seek error is returned and nothing changes.
//
// This is what lets `{ head -n 2; cat; } < file` print the file once.
// A Reader reads ahead by a whole buffer, larger than bufio's 4096 bytes
// under most policies, so a tool that stops early and leaves the rest to
// another reader should call Sync before it exits (`defer r.Sync()`).
func (b *Reader) Sync() error {
	b.lastByte = -1
	b.lastRuneSize = -1
	unread := b.w - b.r
	if unread == 0 {
		return nil
	}
	s, ok := b.rd.(io.Seeker)
	if !ok {
		return nil
	}
	if _, err := s.Seek(-int64(unread), io.SeekCurrent); err != nil {
		if errors.Is(err, errSeekPipe) {
			return nil
		}
		return err
	}
	b.r, b.w = 0, 0
	if b.err == io.EOF {
		// The bytes given back will be read again before the end.
		b.err = nil
	}
	return nil
}
