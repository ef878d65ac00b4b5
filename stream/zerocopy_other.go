//go:build !linux

package stream

import "io"

// A copyPlan is a kernel copy decided on. Here there is none.
type copyPlan struct{}

// planCopy decides whether src's bytes can move to dst inside the kernel.
// Here they never can: the caller copies in user space, as bufio does.
func planCopy(dst io.Writer, src io.Reader, limit int64) (p copyPlan, ok bool) {
	return copyPlan{}, false
}

// run is never called: planCopy makes no plan here.
func (p *copyPlan) run(c *counters) (written int64, handled bool, err error) {
	return 0, false, nil
}
