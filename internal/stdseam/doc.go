// Package stdseam holds the standard library's twins of stream's platform
// seam: for each stream/sys_*.go that imports golang.org/x/sys, a file of
// the same name, package bufio, that does the same with syscall and
// internal/syscall/* only, which a standard-library package may import.
// cmd/stdiobuf's generator puts them in place of the originals when it
// compiles stream as the standard library's bufio, and drops the
// "stdiobuf_std && " from their build constraint. The seam's functions
// are listed in stream/sys_linux.go.
//
// One twin is not the seam's: reportexit.go runs the report at exit
// (stream/report.go) from the runtime's exit hooks, which only a package
// of the standard library may import.
//
// Every file here but this one is built only with the stdiobuf_std tag,
// and only inside the standard library, so a normal build and go vet skip
// them.
package stdseam
