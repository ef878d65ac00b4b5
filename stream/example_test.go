package stream_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stdiobuf/stdiobuf/stream"
)

// textFile returns a new temporary file holding text, open at its start.
// The caller closes and removes it.
func textFile(text string) (*os.File, error) {
	f, err := os.CreateTemp("", "stream-example-*.txt")
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(text)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// A Reader over a file decides its mode and size at its first read, by
// fstat, and Info says what it chose. The size is the file system's
// st_blksize up to 128 KiB (4096 on ext4, 131072 on ZFS or XFS mounted
// with largeio), so this prints only what is the same everywhere.
func ExampleNewReader() {
	f, err := textFile("first line\nsecond line\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()

	r := stream.NewReader(f)
	line, err := r.ReadString('\n')
	if err != nil {
		fmt.Println(err)
		return
	}
	info := r.Info()
	fmt.Printf("%q\n", line)
	fmt.Println("mode:", info.Mode)                 // a regular file is fully buffered
	fmt.Println("size >= 4096:", info.Size >= 4096) // min(st_blksize, 128 KiB)
	fmt.Println("reads:", info.Reads)               // the whole file came in one read(2)
	// Output:
	// "first line\n"
	// mode: full
	// size >= 4096: true
	// reads: 1
}

// Getdelim reads records ending in any byte into one reused slice, as
// getdelim(3) does: the loop below allocates once, for the first record.
// Here the records are NUL-terminated, as find -print0 writes them.
func ExampleReader_Getdelim() {
	r := stream.NewReader(strings.NewReader("a.txt\x00dir/b c.go\x00last, no NUL"))
	var rec []byte
	for {
		var err error
		rec, err = r.Getdelim(rec[:0], 0)
		if len(rec) > 0 {
			fmt.Printf("%q\n", rec)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// "a.txt\x00"
	// "dir/b c.go\x00"
	// "last, no NUL"
}

// callLog prints every Write it gets: one line per write(2) the Writer
// would make on a descriptor.
type callLog struct{}

func (callLog) Write(p []byte) (int, error) {
	fmt.Printf("write %q\n", p)
	return len(p), nil
}

// Setvbuf chooses setvbuf(3)'s mode. A line-buffered Writer sends
// everything through the last newline of each write in one call and keeps
// the rest; an unbuffered one passes each write on whole.
func ExampleWriter_Setvbuf() {
	w := stream.NewWriter(callLog{})
	if err := w.Setvbuf(stream.LineBuffered, 0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Fprint(w, "one\ntw")
	fmt.Fprint(w, "o\nthree\nfo")
	fmt.Println("flush")
	w.Flush()

	if err := w.Setvbuf(stream.Unbuffered, 0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Fprint(w, "no")
	fmt.Fprint(w, "ne\n")
	// Output:
	// write "one\n"
	// write "two\nthree\n"
	// flush
	// write "fo"
	// write "no"
	// write "ne\n"
}

// NewReaderPolicy picks the policy that sizes one stream's buffer over a
// descriptor; ParsePolicy reads the names and sizes STDIOBUF_POLICY and
// getdelim's --policy take. Over a pipe the buffer is fully buffered and
// exactly the size asked for.
func ExampleNewReaderPolicy() {
	pr, pw, err := os.Pipe()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pr.Close()
	go func() {
		fmt.Fprint(pw, "from the pipe\n")
		pw.Close()
	}()

	for _, name := range []string{"64K", "bufio"} {
		p, err := stream.ParsePolicy(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		info := stream.NewReaderPolicy(pr, p).Info() // decides without reading
		fmt.Println(info.Policy, info.Mode, info.Size)
	}

	r := stream.NewReaderPolicy(pr, 256<<10)
	line, _ := r.ReadString('\n')
	fmt.Printf("%q, read with a %d-byte buffer\n", line, r.Size())
	// Output:
	// 65536 full 65536
	// bufio full 4096
	// "from the pipe\n", read with a 262144-byte buffer
}

// CopyRecords copies the first n records without looking at each one, as
// head -n does, and leaves the reader just after them.
func ExampleReader_CopyRecords() {
	r := stream.NewReader(strings.NewReader("1\n2\n3\n4\n5\n"))
	written, records, err := r.CopyRecords(os.Stdout, '\n', 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d records, %d bytes\n", records, written)
	rest, _ := io.ReadAll(r)
	fmt.Printf("left: %q\n", rest)
	// Output:
	// 1
	// 2
	// 3
	// 3 records, 6 bytes
	// left: "4\n5\n"
}

// A Reader reads ahead of what it returns, up to its buffer's size, so on a
// shared descriptor the next reader (a child process, or wc in
// `{ tool -n 1; wc -c; } < file`) starts that far in: 4096 bytes under
// bufio, 131072 under stream on a file system with st_blksize 128 KiB.
// Sync gives the unread bytes back, as fflush(stdin) does in C.
func ExampleReader_Sync() {
	var text strings.Builder
	for i := 1; text.Len() < 256<<10; i++ { // larger than any blksize buffer
		fmt.Fprintf(&text, "line %d\n", i)
	}
	f, err := textFile(text.String())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()

	r := stream.NewReaderPolicy(f, stream.PolicyBlksize)
	line, _ := r.ReadString('\n')
	off, _ := f.Seek(0, io.SeekCurrent)
	fmt.Printf("read %q; offset == Size(): %v\n", line, off == int64(r.Size()))
	if err := r.Sync(); err != nil {
		fmt.Println(err)
		return
	}
	off, _ = f.Seek(0, io.SeekCurrent)
	fmt.Println("offset after Sync:", off)
	// Output:
	// read "line 1\n"; offset == Size(): true
	// offset after Sync: 7
}

// exitChildEnv makes TestExampleExitChild act as the program of
// ExampleExit.
const exitChildEnv = "STREAM_EXAMPLE_EXIT_CHILD"

// exitMain is the main function of a program on the standard streams.
// Stdout is buffered (fully, into a pipe or a file), so what it holds must
// be flushed before the process ends: Exit does that, as C's exit does,
// and reports a failed write as GNU tools do.
func exitMain() {
	fmt.Fprintln(stream.Stdout, "hello, world")
	stream.Exit(3)
}

// TestExampleExitChild is not a test: it is the process ExampleExit runs,
// since Exit ends the process that calls it.
func TestExampleExitChild(t *testing.T) {
	if os.Getenv(exitChildEnv) != "1" {
		t.Skip("the child process of ExampleExit; runs only with " + exitChildEnv + "=1")
	}
	exitMain()
}

// Exit flushes Stdout and Stderr and exits with the given status; if
// Stdout cannot be written it says so on Stderr and exits with status 1.
// The program here is exitMain, run as a child process, first with its
// standard output on a pipe, then on a file it may not write.
func ExampleExit() {
	run := func(stdout *os.File) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExampleExitChild$")
		cmd.Args[0] = "hello" // the program's name in its messages
		cmd.Env = append(os.Environ(), exitChildEnv+"=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		var out []byte
		var err error
		if stdout == nil {
			out, err = cmd.Output()
		} else {
			cmd.Stdout = stdout
			err = cmd.Run()
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Println("want an exit status, got", err)
			return
		}
		fmt.Printf("status %d, stdout %q, stderr %q\n", exit.ExitCode(), out, stderr.String())
	}

	run(nil)

	readOnly, err := os.Open(os.Args[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	defer readOnly.Close()
	run(readOnly)
	// Output:
	// status 3, stdout "hello, world\n", stderr ""
	// status 1, stdout "", stderr "hello: write error: Bad file descriptor\n"
}
