//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout` and
// `-files`: it counts, for the report, the reads package time makes of
// the zone files with package syscall (time's template,
// internal/osstdout/time, calls the hooks set here). Each zone file read
// has a line like a plain descriptor's (buffer=none), one per descriptor
// and name however often time opens it, so that a program loading zones
// in a loop keeps a few records, not one per load.

package os

import (
	"sync"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// stdioSetZoneHooks is time's stdioSetZoneHooks. The signature must stay
// the same as that one's: no compiler checks it across a go:linkname.
//
//go:linkname stdioSetZoneHooks time.stdioSetZoneHooks
func stdioSetZoneHooks(opened func(fd int, name string), read func(fd, n int), closed func(fd int))

func init() {
	if stdioReportOn {
		stdioSetZoneHooks(stdioZoneOpened, stdioZoneRead, stdioZoneClosed)
	}
}

// stdioZoneWhy is the reason on a zone file's line.
const stdioZoneWhy = "package time's zone files: read plainly"

// A stdioZoneFile is a zone file package time read on one descriptor:
// what the report registers (Fd, Name, StdiobufBuffer say what its line
// shows) and its counts.
type stdioZoneFile struct {
	fd          int
	name        string
	reads, read atomic.Int64 // read(2) calls, and the bytes they returned
	seen        atomic.Bool  // the line is registered
}

func (z *stdioZoneFile) Fd() uintptr { return uintptr(z.fd) }

func (z *stdioZoneFile) Name() string { return z.name }

// StdiobufBuffer says that no buffer of os's is over the file.
func (*stdioZoneFile) StdiobufBuffer() string { return "none" }

// state is the line's counts and reason at exit.
func (z *stdioZoneFile) state() (calls, bytes int64, why string) {
	return z.reads.Load(), z.read.Load(), stdioZoneWhy
}

// stdioZoneKey tells zone files apart: a descriptor and the name time
// opened.
type stdioZoneKey struct {
	fd   int
	name string
}

// stdioZones are the zone files: those time holds open, by descriptor,
// and every one seen.
var stdioZones struct {
	mu   sync.Mutex
	open map[int]*stdioZoneFile
	all  map[stdioZoneKey]*stdioZoneFile
}

// stdioZoneOpened records that time opened the zone file name as fd.
func stdioZoneOpened(fd int, name string) {
	z := &stdioZones
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.open == nil {
		z.open = make(map[int]*stdioZoneFile)
		z.all = make(map[stdioZoneKey]*stdioZoneFile)
	}
	k := stdioZoneKey{fd, name}
	f := z.all[k]
	if f == nil {
		f = &stdioZoneFile{fd: fd, name: name}
		z.all[k] = f
	}
	z.open[fd] = f
}

// stdioZoneRead counts a read(2) of time's that returned n (-1 for an
// error) on fd, and registers the file's line at its first, while the
// descriptor is open for the report to look at.
func stdioZoneRead(fd, n int) {
	z := &stdioZones
	z.mu.Lock()
	f := z.open[fd]
	z.mu.Unlock()
	if f == nil {
		return // opened before os's init set the hooks
	}
	f.reads.Add(1)
	f.read.Add(int64(max(n, 0)))
	if !f.seen.Load() && f.seen.CompareAndSwap(false, true) {
		stdioReportPlain(f, false, f.state)
	}
}

// stdioZoneClosed forgets fd, which time is about to close.
func stdioZoneClosed(fd int) {
	z := &stdioZones
	z.mu.Lock()
	delete(z.open, fd)
	z.mu.Unlock()
}
