package stream

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

// The tests of this file are the cases where reading ahead could be seen
// by a program: each gives what a plain Reader (bufio) gives, or, where
// read-ahead keeps a documented difference (bytes rewritten in place), it
// shows the difference is no wider than the documentation says.

// TestReadaheadPipePrompt is a prompt read from a pipe: a function that
// makes a Reader over it, reads a line and drops the Reader, called
// twice, the second line written after the first call returned. Each
// call gets its line: a dropped Reader takes nothing it did not return
// from a pipe beyond its buffer's one read.
func TestReadaheadPipePrompt(t *testing.T) {
	aheadCPUs(t)
	t.Setenv(policyEnv, "readahead:64K")
	pr, pw := aheadPipe(t)
	prompt := func() (string, error) { return NewReader(pr).ReadString('\n') }
	if _, err := pw.WriteString("a\n"); err != nil {
		t.Fatal(err)
	}
	var got []string
	line, err := prompt()
	got = append(got, fmt.Sprintf("%q %v", line, err))
	// Time for a read the dropped Reader may have left behind to start
	// and wait on the empty pipe, as it would while a user types.
	time.Sleep(50 * time.Millisecond)
	if _, err := pw.WriteString("b\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	line, err = prompt()
	got = append(got, fmt.Sprintf("%q %v", line, err))
	if diff := cmp.Diff([]string{`"a\n" <nil>`, `"b\n" <nil>`}, got); diff != "" {
		t.Errorf("two prompts (-bufio +readahead):\n%s", diff)
	}
}

// TestReadaheadPipeDeadline reads two requests from a pipe with a read
// deadline that passes while the program works on the first and is then
// extended: the second request is read, as by bufio. A read made ahead
// during the work would carry the old deadline.
func TestReadaheadPipeDeadline(t *testing.T) {
	aheadCPUs(t)
	pr, pw := aheadPipe(t)
	r := NewReaderPolicy(pr, ReadaheadSize(64<<10))
	if _, err := pw.WriteString("request 1\n"); err != nil {
		t.Fatal(err)
	}
	if err := pr.SetReadDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Skipf("no deadlines on pipes here: %v", err)
	}
	line, err := r.ReadString('\n')
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Skip("the machine stalled past the deadline before the first read")
	}
	if line != "request 1\n" || err != nil {
		t.Fatalf("first request: %q, %v", line, err)
	}
	time.Sleep(200 * time.Millisecond) // the work, past the deadline
	if err := pr.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := pw.WriteString("request 2\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := r.ReadString('\n'); line != "request 2\n" || err != nil {
		t.Errorf("second request, deadline extended: %q, %v; want it, as bufio reads it", line, err)
	}
}

// TestReadaheadResetServer is a request/response server over pipes that
// resets its Reader to the same pipe between requests: the client sends
// the next request only after the reply. bufio's Reset never blocks; a
// Reset that waited for a read ahead would wait for the client, which
// waits for the reply.
func TestReadaheadResetServer(t *testing.T) {
	aheadCPUs(t)
	requests, reqw := aheadPipe(t)
	replies, repw := aheadPipe(t)
	const exchanges = 50
	go func() {
		reply := bufio.NewReader(replies)
		for i := range exchanges {
			fmt.Fprintf(reqw, "request %d\n", i)
			if _, err := reply.ReadString('\n'); err != nil {
				return
			}
		}
		reqw.Close()
	}()
	done := make(chan error, 1)
	go func() {
		r := NewReaderPolicy(requests, ReadaheadSize(64<<10))
		for i := range exchanges {
			line, err := r.ReadString('\n')
			if want := fmt.Sprintf("request %d\n", i); line != want || err != nil {
				done <- fmt.Errorf("exchange %d: %q, %v; want %q", i, line, err, want)
				return
			}
			r.Reset(requests)
			repw.WriteString("ok\n")
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server is stuck after 30 s: Reset waits for the client")
	}
}

// TestReadaheadBlockDevice drops a read-ahead Reader over a block device
// mid-read, seeks the device and reads on with a new Reader, or with the
// same one Reset: every read starts at the offset sought, as with bufio.
// A read ahead that moved the device's offset would move it under the
// owner's Seek. Each 8 bytes of the device hold their own offset.
func TestReadaheadBlockDevice(t *testing.T) {
	aheadCPUs(t)
	const size = 16 << 20
	data := make([]byte, size)
	for off := 0; off < size; off += 8 {
		binary.BigEndian.PutUint64(data[off:], uint64(off))
	}
	f, err := os.Open(fsmount.LoopForTest(t, data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const runs = 300
	var wrong []string
	engaged := false
	r := NewReaderPolicy(f, ReadaheadSize(64<<10))
	for n := range runs {
		if _, err := r.Discard(1 + n*4099%100000); err != nil {
			wrong = append(wrong, fmt.Sprintf("run %d: Discard: %v", n, err))
		}
		engaged = engaged || r.Info().Ahead > 0
		off := int64(n*7919%((size-200000)/8)) * 8 // room for the next Discard
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if n%2 == 0 {
			r = NewReaderPolicy(f, ReadaheadSize(64<<10)) // the old one dropped
		} else {
			r.Reset(f)
		}
		var word [8]byte
		if _, err := io.ReadFull(r, word[:]); err != nil {
			wrong = append(wrong, fmt.Sprintf("at %d: %v", off, err))
		} else if got := int64(binary.BigEndian.Uint64(word[:])); got != off {
			wrong = append(wrong, fmt.Sprintf("at %d: %d", off, got))
		}
	}
	if len(wrong) > 0 {
		t.Errorf("%d of %d reads after Seek started elsewhere: %v", len(wrong), runs, wrong)
	}
	if !engaged {
		t.Error("no Reader read ahead over the block device: the test proves nothing")
	}
}

// TestReadaheadWriteAtWindow shows the window the documentation states:
// bytes rewritten in place (here by another writer of the file) after
// they were read ahead come back as they were for the chunks read ahead,
// up to aheadChunks buffers past the one the caller is on; bufio's
// window is its one buffer. Past the window every byte is the new one.
func TestReadaheadWriteAtWindow(t *testing.T) {
	aheadCPUs(t)
	const size = 4096
	const chunk = size // a chunk is a buffer
	before := bytes.Repeat([]byte("o"), 12*chunk)
	after := bytes.Repeat([]byte("N"), len(before))
	f := aheadFile(t, before)
	w, err := os.OpenFile(f.Name(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r := aheadReader(t, f, size)
	first, err := r.ReadByte()
	if err != nil {
		t.Fatal(err)
	}
	aheadIdle(t, r)
	if _, err := w.WriteAt(after, 0); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	got := append([]byte{first}, rest...)
	stale := (1 + aheadChunks) * chunk
	want := append(bytes.Clone(before[:stale]), after[stale:]...)
	if !bytes.Equal(got, want) {
		t.Errorf("read %d old bytes, then %d new; want %d old (the buffer and %d chunks ahead), then the rest new",
			len(got)-len(bytes.TrimLeft(got, "o")), len(bytes.TrimLeft(got, "o")), stale, aheadChunks)
	}
}

// TestReadaheadCloseEnds closes the file under a Reader that has read
// ahead: the Reader returns what is in its buffer, then os.ErrClosed, as
// bufio does, and nothing of what was read ahead.
func TestReadaheadCloseEnds(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(5000)
	f := aheadFile(t, data)
	r := aheadReader(t, f, 4096)
	if _, err := r.ReadByte(); err != nil {
		t.Fatal(err)
	}
	aheadIdle(t, r)
	buffered := r.Buffered()
	f.Close()
	got, err := io.ReadAll(r)
	if len(got) != buffered || !errors.Is(err, os.ErrClosed) {
		t.Errorf("after Close: %d bytes, %v; want the %d buffered, then os.ErrClosed", len(got), err, buffered)
	}
}
