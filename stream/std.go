package stream

import (
	"errors"
	"io"
	"os"
	"sync"
)

// The standard streams: stdin and stdout follow the policy (a terminal is
// line buffered), stderr is unbuffered, and _STDBUF_I, _STDBUF_O and
// _STDBUF_E apply as under coreutils' stdbuf. Nothing is allocated or
// fstat()ed until a stream is first used. Unlike other Readers and
// Writers, they are safe for use by several goroutines: each call holds
// the stream's lock, and Lock holds it across many calls.
var (
	Stdin  = &LockedReader{r: NewReader(os.Stdin)}
	Stdout = &LockedWriter{w: NewWriter(os.Stdout)}
	Stderr = &LockedWriter{w: NewWriter(os.Stderr)}
)

// LockedReader is a Reader behind a mutex, as a C FILE is behind its lock.
// It has every method of Reader, so it satisfies the same io and fmt
// interfaces (io.RuneScanner for fmt.Fscan, io.WriterTo, ...); each call
// holds the lock for its duration.
type LockedReader struct {
	mu sync.Mutex
	r  *Reader
}

// Lock locks the stream, as flockfile(3), and returns its Reader to use
// until Unlock: a loop that reads many records pays for one lock, not one
// a call.
func (l *LockedReader) Lock() *Reader {
	l.mu.Lock()
	return l.r
}

// Unlock unlocks the stream, as funlockfile(3).
func (l *LockedReader) Unlock() { l.mu.Unlock() }

// Read is Reader.Read under the lock.
func (l *LockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// ReadByte is Reader.ReadByte under the lock.
func (l *LockedReader) ReadByte() (byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadByte()
}

// ReadRune is Reader.ReadRune under the lock.
func (l *LockedReader) ReadRune() (rune, int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadRune()
}

// UnreadRune is Reader.UnreadRune under the lock. With ReadRune it makes
// a LockedReader an io.RuneScanner, which fmt.Fscan needs to put back the
// rune that ends a token.
func (l *LockedReader) UnreadRune() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.UnreadRune()
}

// UnreadByte is Reader.UnreadByte under the lock.
func (l *LockedReader) UnreadByte() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.UnreadByte()
}

// Peek is Reader.Peek under the lock. The slice is good only until the
// next read by any goroutine: when others read too, hold Lock across the
// call and the use of the bytes.
func (l *LockedReader) Peek(n int) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Peek(n)
}

// ReadSlice is Reader.ReadSlice under the lock. The slice is good only
// until the next read by any goroutine, as with Peek.
func (l *LockedReader) ReadSlice(delim byte) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadSlice(delim)
}

// ReadLine is Reader.ReadLine under the lock. The line is good only until
// the next read by any goroutine, as with Peek.
func (l *LockedReader) ReadLine() (line []byte, isPrefix bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadLine()
}

// Discard is Reader.Discard under the lock.
func (l *LockedReader) Discard(n int) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Discard(n)
}

// Buffered is Reader.Buffered under the lock.
func (l *LockedReader) Buffered() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Buffered()
}

// Size is Reader.Size under the lock.
func (l *LockedReader) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Size()
}

// Reset is Reader.Reset under the lock. Resetting the stream to read from
// itself does nothing, as for a Reader.
func (l *LockedReader) Reset(r io.Reader) {
	if r == io.Reader(l) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.r.Reset(r)
}

// ReadString is Reader.ReadString under the lock.
func (l *LockedReader) ReadString(delim byte) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadString(delim)
}

// ReadBytes is Reader.ReadBytes under the lock.
func (l *LockedReader) ReadBytes(delim byte) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.ReadBytes(delim)
}

// Getdelim is Reader.Getdelim under the lock.
func (l *LockedReader) Getdelim(line []byte, delim byte) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Getdelim(line, delim)
}

// Getline is Reader.Getline under the lock.
func (l *LockedReader) Getline(line []byte) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Getline(line)
}

// WriteTo is Reader.WriteTo under the lock.
func (l *LockedReader) WriteTo(w io.Writer) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.WriteTo(w)
}

// CopyRecords is Reader.CopyRecords under the lock.
func (l *LockedReader) CopyRecords(w io.Writer, delim byte, n int64) (written, records int64, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.CopyRecords(w, delim, n)
}

// CopyBytes is Reader.CopyBytes under the lock.
func (l *LockedReader) CopyBytes(w io.Writer, n int64) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.CopyBytes(w, n)
}

// Sync is Reader.Sync under the lock.
func (l *LockedReader) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Sync()
}

// Setvbuf is Reader.Setvbuf under the lock.
func (l *LockedReader) Setvbuf(mode Mode, size int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Setvbuf(mode, size)
}

// SetPolicy is Reader.SetPolicy under the lock.
func (l *LockedReader) SetPolicy(p Policy) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.SetPolicy(p)
}

// Info is Reader.Info under the lock.
func (l *LockedReader) Info() Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Info()
}

// LockedWriter is a Writer behind a mutex, as a C FILE is behind its lock.
// It has every method of Writer, so it satisfies the same io and fmt
// interfaces; each call holds the lock for its duration.
type LockedWriter struct {
	mu sync.Mutex
	w  *Writer
}

// Lock locks the stream, as flockfile(3), and returns its Writer to use
// until Unlock.
func (l *LockedWriter) Lock() *Writer {
	l.mu.Lock()
	return l.w
}

// Unlock unlocks the stream, as funlockfile(3).
func (l *LockedWriter) Unlock() { l.mu.Unlock() }

// Write is Writer.Write under the lock.
func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// WriteString is Writer.WriteString under the lock.
func (l *LockedWriter) WriteString(s string) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.WriteString(s)
}

// WriteByte is Writer.WriteByte under the lock.
func (l *LockedWriter) WriteByte(c byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.WriteByte(c)
}

// WriteRune is Writer.WriteRune under the lock.
func (l *LockedWriter) WriteRune(r rune) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.WriteRune(r)
}

// ReadFrom is Writer.ReadFrom under the lock.
func (l *LockedWriter) ReadFrom(r io.Reader) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.ReadFrom(r)
}

// Available is Writer.Available under the lock.
func (l *LockedWriter) Available() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Available()
}

// AvailableBuffer is Writer.AvailableBuffer under the lock. The slice is
// good only until the next write by any goroutine: when others write too,
// hold Lock across the call, the appends and the Write.
func (l *LockedWriter) AvailableBuffer() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.AvailableBuffer()
}

// Buffered is Writer.Buffered under the lock.
func (l *LockedWriter) Buffered() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Buffered()
}

// Size is Writer.Size under the lock.
func (l *LockedWriter) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Size()
}

// Reset is Writer.Reset under the lock: unflushed output is dropped.
// Resetting the stream to write to itself does nothing, as for a Writer.
func (l *LockedWriter) Reset(w io.Writer) {
	if w == io.Writer(l) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Reset(w)
}

// Flush is Writer.Flush under the lock.
func (l *LockedWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Flush()
}

// Setvbuf is Writer.Setvbuf under the lock.
func (l *LockedWriter) Setvbuf(mode Mode, size int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Setvbuf(mode, size)
}

// SetPolicy is Writer.SetPolicy under the lock.
func (l *LockedWriter) SetPolicy(p Policy) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.SetPolicy(p)
}

// Info is Writer.Info under the lock.
func (l *LockedWriter) Info() Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Info()
}

// flushStdoutBeforeRead is glibc's rule that a line-buffered or
// unbuffered input stream flushes stdout, if stdout is line buffered,
// before it reads its descriptor: a prompt without a newline is shown
// before the program waits. If Stdout is locked it is left alone rather
// than waited for, since its holder may be the goroutine that is reading.
func flushStdoutBeforeRead() {
	if !Stdout.mu.TryLock() {
		return
	}
	defer Stdout.mu.Unlock()
	if w := Stdout.w; w.s.mode == LineBuffered && w.n > 0 {
		w.Flush()
	}
}

// Flush flushes Stdout and Stderr, Go's stand-in for the flush of every
// stream glibc does at exit. Both are flushed whatever happens to the
// first, and the error is theirs joined by errors.Join (Stdout's first;
// nil if both succeed), so errors.Is finds either. Other Writers are not
// tracked: flush them yourself.
func Flush() error {
	errOut := Stdout.Flush()
	errErr := Stderr.Flush()
	return errors.Join(errOut, errErr)
}

// Exit flushes the standard streams and ends the program with the given
// status, as a C program's exit does. If Stdout could not be written, now
// or earlier, it reports that as gnulib's close_stdout does,
//
//	PROG: write error: No space left on device
//
// and exits with status 1 instead. PROG is os.Args[0] as given, as GNU
// tools print their name.
//
// Like glibc's exit, it also hands unread standard input back (Reader.Sync):
// on a seekable input the next reader of the same open file starts just
// after the last byte this program read. It skips that if another
// goroutine holds Stdin, which may be blocked in a read.
//
// With STDIOBUF_REPORT set it prints the report of the process's streams
// over descriptors last (report.go), as a program built by stdiobuf does
// at every exit.
func Exit(code int) {
	if Stdin.mu.TryLock() {
		Stdin.r.Sync()
		Stdin.mu.Unlock()
	}
	if err := Stdout.Flush(); err != nil {
		Stderr.Flush()
		os.Stderr.WriteString(os.Args[0] + ": write error: " + errnoText(err) + "\n")
		exitReport()
		os.Exit(1)
	}
	Stderr.Flush()
	exitReport()
	os.Exit(code)
}

// errnoText returns the text strerror(3) gives for the system error inside
// err ("No space left on device"), or err's own text if it holds none.
func errnoText(err error) string {
	var errno sysErrno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	// Go's texts are glibc's with the first letter in lower case.
	return string(s[0]-'a'+'A') + s[1:]
}
