// Package stream is a drop-in for bufio with the buffering C programs get
// from glibc's stdio. Replace
//
//	import "bufio"
//
// with
//
//	import bufio "github.com/stdiobuf/stdiobuf/stream"
//
// and the program compiles and behaves as before, except that a stream
// over a file descriptor (an *os.File, or anything with an Fd method) is
// buffered as glibc buffers a FILE: at its first read or write it
// fstat()s the descriptor, line-buffers a terminal, leaves standard error
// unbuffered, and sizes its buffer from st_blksize by a Policy (by
// default min(st_blksize, 128 KiB)). A stream over anything else (a
// bytes.Buffer, a strings.Reader, a net.Conn) gets exactly what bufio
// gives it, and the error values are bufio's own.
//
// # Policies
//
//	policy      size                                                   source
//	blksize     min(st_blksize, 128 KiB); 8192 if fstat fails         glibc patch proposal (default)
//	bufsiz      min(st_blksize, 8192)                                  glibc since 2.25
//	coreutils   smallest multiple of st_blksize >= 256 KiB             coreutils io_blksize()
//	bufio       4096, never line buffered                              Go's bufio
//	N           N bytes                                                setvbuf with a size
//
// The process default comes from the environment variable
// STDIOBUF_POLICY; NewReaderPolicy and NewWriterPolicy choose one per
// stream; Setvbuf sets mode and size at any time.
//
// # Beyond bufio
//
// Setvbuf sets one of the three modes of setvbuf(3). Getdelim reads
// records into a reused slice as getdelim(3). Reader.Sync hands unread
// input back to a seekable descriptor as fflush on an input stream.
// CopyRecords and CopyBytes copy whole runs of records or bytes to a
// writer without stopping at each one; WriteTo, ReadFrom and CopyBytes
// move bytes in the kernel when both ends are descriptors. Stdin, Stdout
// and Stderr are the standard streams, and honour coreutils stdbuf's
// _STDBUF_I, _STDBUF_O and _STDBUF_E, so `stdbuf -oL prog` works on a Go
// program. Flush and Exit stand in for the flush glibc does at exit.
// Info tells what a stream chose, why, and how many calls it made.
//
// # Where it differs from glibc
//
// A failed write keeps the unwritten bytes buffered and the error sticky
// (bufio's rule; glibc drops them). Setvbuf never drops unread input and
// honours a size without a buffer. End of file is not sticky, as in bufio.
//
// # Concurrency
//
// As in bufio, a Reader, Writer or Scanner must not be used by several
// goroutines at once. Stdin, Stdout and Stderr may be: each call takes the
// stream's lock, and Lock and Unlock hold it over many calls as
// flockfile(3) and funlockfile(3) do.
package stream
