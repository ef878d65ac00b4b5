//go:build stdiobuf_std

// This file is added to package time by `stdiobuf build -stdout` and
// `-files`. Package time opens, reads and closes the zone files (the
// local zone, LoadLocation's files, zoneinfo.zip) with package syscall,
// not through an *os.File, which time cannot import; the generator sends
// those calls, in sys_unix.go, through the functions of that file's
// template, which tell package os of each one through the hooks here, so
// that the report (STDIOBUF_REPORT) counts them as a descriptor's reads.

package time

import _ "unsafe" // for go:linkname

// stdioZoneHooks are package os's counters, set once by os's init while
// the report is on, before main runs; nil otherwise, and then a zone
// file's open, read and close cost one test each.
var stdioZoneHooks struct {
	opened func(fd int, name string) // time opened the zone file name as fd
	read   func(fd, n int)           // a read(2) of fd returned n
	closed func(fd int)              // time is about to close fd
}

// stdioSetZoneHooks sets stdioZoneHooks: os calls it through a
// go:linkname (its zz_stdiobuf_zone.go, stdioSetZoneHooks, repeats this
// signature, which no compiler checks across the two: change both
// together).
//
//go:linkname stdioSetZoneHooks
func stdioSetZoneHooks(opened func(fd int, name string), read func(fd, n int), closed func(fd int)) {
	stdioZoneHooks.opened, stdioZoneHooks.read, stdioZoneHooks.closed = opened, read, closed
}
