//go:build stdiobuf_std

package os

// tryFlush stands in for branch so's tryFlush (the same contract: flush
// without waiting for good on the lock) until it is merged; delete this
// file then.
func (s *stdioStream) tryFlush() {
	if s.w == nil || !s.tryLock() {
		return
	}
	defer s.mu.Unlock()
	if !s.closed {
		s.w.Flush()
	}
}
