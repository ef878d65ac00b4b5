//go:build stdiobuf_std

// This file is added to package fmt by `stdiobuf build -stdout`; it does
// something only under -files, where a regular file read through
// fmt.Fscan, Fscanln or Fscanf (and Scan, Scanln, Scanf on standard
// input) may have a read buffer in package os. The statement the
// generator inserts into those three (internal/osstdout's insertions)
// makes such a call hold the buffer for its whole length and scan the
// io.RuneScanner package os gives it, which takes each byte straight from
// the buffer, where a plain build makes one read(2) a byte. That
// RuneScanner reads runes as fmt's readRune does and forgets, when the
// call returns, the rune fmt peeked after the last token, so the file is
// left where a plain build leaves it.
//
// The buffer is held only where nothing but fmt runs until the call
// returns: no argument is a Scanner (whose Scan method could do anything,
// reading the same file among others), and the buffer's refills are
// read(2)s of a regular file, which wait for no peer.

package fmt

import (
	"io"
	"os"
	_ "unsafe" // for go:linkname
)

// stdioScanBegin returns, where r is a *os.File whose read buffer this
// call now holds, the reader, an io.RuneScanner, to scan instead of r;
// nil where the call reads r as it does plainly.
func stdioScanBegin(r io.Reader, a []any) io.Reader {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	for _, arg := range a {
		if _, ok := arg.(Scanner); ok {
			return nil
		}
	}
	return os_stdioScanBegin(f)
}

// os_stdioScanBegin takes f's read buffer for the calling scan and
// returns the reader, an io.RuneScanner, that reads through it, or nil
// where f has no read buffer. Implemented in os.
//
//go:linkname os_stdioScanBegin os.stdioScanBegin
func os_stdioScanBegin(f *os.File) io.Reader

// os_stdioScanEnd releases what os_stdioScanBegin took for the scan
// that reads through rs. Implemented in os.
//
//go:linkname os_stdioScanEnd os.stdioScanEnd
func os_stdioScanEnd(rs io.Reader)
