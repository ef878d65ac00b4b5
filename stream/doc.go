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
// default min(st_blksize, 128 KiB), never less than bufio's 4096). A
// stream over anything else (a bytes.Buffer, a strings.Reader, a
// net.Conn) gets exactly what bufio gives it, and the error values are
// bufio's own.
//
// # Policies
//
//	policy      buffer size (see the Policy constants)
//	blksize     min(st_blksize, 128 KiB), at least 4096 (the default)
//	bufsiz      min(st_blksize, 8192), as glibc
//	coreutils   the smallest multiple of st_blksize of at least 256 KiB
//	bufio       4096, never line buffered, as bufio
//	readahead   blksize's; a Reader over a file also reads ahead
//	readahead:N N bytes, read ahead
//	cpython     max(min(st_blksize, 8 MiB), 128 KiB), as CPython's open()
//	rust        8192, no terminal rule, as Rust's BufReader and BufWriter
//	N           N bytes, as setvbuf with a size
//
// The process default is the policy given to SetDefaultPolicy, else the
// one the environment variable STDIOBUF_POLICY names (a bad value is
// reported once on standard error and the default used); NewReaderPolicy
// and NewWriterPolicy choose one per stream; Setvbuf sets mode and size at
// any time. Under every policy a Reader over a regular file is given no
// more buffer than the file's size rounded up to whole st_blksize blocks
// (and no less than 4096).
//
// # Beyond bufio
//
// Setvbuf sets one of the three modes of setvbuf(3). Getdelim reads
// records into a reused slice as getdelim(3). Reader.Sync hands unread
// input back to a seekable descriptor as fflush on an input stream.
// CopyRecords and CopyBytes copy whole runs of records or bytes to a
// writer without stopping at each one; WriteTo, ReadFrom and CopyBytes
// move bytes in the kernel between *os.File values; a value that only
// offers a descriptor is buffered by it but read and written through its
// own methods, as bufio does. Stdin, Stdout and Stderr are the standard
// streams, and honour coreutils stdbuf's _STDBUF_I, _STDBUF_O and
// _STDBUF_E, so `stdbuf -oL prog` works on a Go program. Flush and Exit
// stand in for the flush glibc does at exit. Info tells what a stream
// chose, why, and how many calls it made.
//
// # Where it differs from glibc
//
// A failed write keeps the unwritten bytes buffered and the error sticky
// (bufio's rule; glibc drops them). Setvbuf never drops unread input and
// honours a size without a buffer. End of file is not sticky, as in bufio.
//
// # Reading ahead on a shared descriptor
//
// A Reader reads a buffer at a time, so a program that stops reading
// early leaves the descriptor's offset up to a buffer past the last byte
// it used, and whoever reads the same open file next starts there, as
// after glibc's stdio. Reader.Sync gives the unread bytes of a seekable
// input back, as fflush on an input stream does: a tool that leaves input
// to others calls it before it exits (defer r.Sync()). Exit does it for
// Stdin, as glibc's exit does.
//
// # Concurrency
//
// As in bufio, a Reader, Writer or Scanner must not be used by several
// goroutines at once. Stdin, Stdout and Stderr may be: each call takes the
// stream's lock, and Lock and Unlock hold it over many calls as
// flockfile(3) and funlockfile(3) do.
package stream
