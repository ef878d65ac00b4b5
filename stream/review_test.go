//go:build linux

package stream_test

import (
	"errors"
	"math"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// TestReviewReaderInfoSize: Info's Size is "the buffer size in bytes", so
// it must agree with Size() also when the asked size is below a reader's
// minimum of 16 bytes.
func TestReviewReaderInfoSize(t *testing.T) {
	t.Setenv(policyEnv, "")
	tests := []struct {
		name string
		new  func(t *testing.T) *stream.Reader
	}{
		{"file, policy 8", func(t *testing.T) *stream.Reader {
			return stream.NewReaderPolicy(openTempFile(t, "hello\n"), 8)
		}},
		{"file, Setvbuf(full, 1)", func(t *testing.T) *stream.Reader {
			r := stream.NewReader(openTempFile(t, "hello\n"))
			r.Setvbuf(stream.FullyBuffered, 1)
			return r
		}},
		{"strings.Reader, Setvbuf(full, 1)", func(t *testing.T) *stream.Reader {
			r := stream.NewReader(strings.NewReader("hello\n"))
			r.Setvbuf(stream.FullyBuffered, 1)
			return r
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.new(t)
			type sizes struct{ Before, BeforeInfo, After, AfterInfo int }
			var got sizes
			got.BeforeInfo, got.Before = r.Info().Size, r.Size()
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			got.AfterInfo, got.After = r.Info().Size, r.Size()
			want := sizes{16, 16, 16, 16}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sizes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReviewScannerBufferDecides: a Scanner over a descriptor given its
// first buffer by Buffer still makes the decision before its first read
// (so that stdbuf -i0 and the prompt flush apply), and Info reports it.
func TestReviewScannerBufferDecides(t *testing.T) {
	t.Setenv(policyEnv, "")
	tests := []struct {
		name string
		buf  []byte
	}{
		{"no Buffer", nil},
		{"Buffer with a 64-byte slice", make([]byte, 64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := openTempFile(t, "a\nb\n")
			s := stream.NewScanner(f)
			if tt.buf != nil {
				s.Buffer(tt.buf, 1024)
			}
			var lines []string
			for s.Scan() {
				lines = append(lines, s.Text())
			}
			type result struct {
				Lines []string
				Fd    int
			}
			got := result{lines, s.Info().Fd}
			want := result{[]string{"a", "b"}, int(f.Fd())}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReviewInvalidPolicy: SetPolicy refuses every Policy that is neither a
// named policy nor a positive size, however negative, and String never
// panics.
func TestReviewInvalidPolicy(t *testing.T) {
	for _, p := range []stream.Policy{-8, -100, math.MinInt, math.MinInt + 1} {
		r := stream.NewReader(strings.NewReader("x"))
		w := stream.NewWriter(&strings.Builder{})
		errR, errW := r.SetPolicy(p), w.SetPolicy(p)
		if !errors.Is(errR, stream.ErrInvalidPolicy) || !errors.Is(errW, stream.ErrInvalidPolicy) {
			t.Errorf("SetPolicy(%d): %v, %v; want ErrInvalidPolicy", int(p), errR, errW)
		}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("Policy(%d).String() panicked: %v", int(p), e)
				}
			}()
			_ = p.String()
		}()
	}
}

// TestReviewKernelCopyErrorSticky: when Reader.WriteTo or CopyBytes moves
// bytes in the kernel into a *Writer's descriptor and that fails, the
// error is the Writer's first write error: sticky, returned by its next
// Flush, as bufio's Writer.ReadFrom makes it (and as Writer.ReadFrom's
// own kernel path does).
func TestReviewKernelCopyErrorSticky(t *testing.T) {
	tests := []struct {
		name string
		copy func(in *os.File, w *stream.Writer) error
	}{
		{"Reader.WriteTo", func(in *os.File, w *stream.Writer) error {
			_, err := stream.NewReader(in).WriteTo(w)
			return err
		}},
		{"Reader.CopyBytes", func(in *os.File, w *stream.Writer) error {
			_, err := stream.NewReader(in).CopyBytes(w, 1<<20)
			return err
		}},
		{"Writer.ReadFrom", func(in *os.File, w *stream.Writer) error {
			_, err := w.ReadFrom(in)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := openTempFile(t, strings.Repeat("x", 100000))
			// A pipe nobody reads: the kernel copy fails with EPIPE.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			pr.Close()
			defer pw.Close()
			w := stream.NewWriter(pw)
			type result struct{ CopyEPIPE, FlushEPIPE bool }
			got := result{CopyEPIPE: errors.Is(tt.copy(in, w), syscall.EPIPE)}
			got.FlushEPIPE = errors.Is(w.Flush(), syscall.EPIPE)
			if diff := cmp.Diff(result{true, true}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReviewInvalidPolicyConstructors checks that the constructors take
// an invalid policy as the default one, and that a stream that has not
// decided reports no descriptor.
func TestReviewInvalidPolicyConstructors(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range []stream.Policy{-8, stream.Policy(math.MinInt)} {
		if got := stream.NewReaderPolicy(f, p).Info().Policy; got != stream.PolicyBlksize && os.Getenv(policyEnv) == "" {
			t.Errorf("NewReaderPolicy(f, %d).Info().Policy = %v, want blksize", int(p), got)
		}
		if got := stream.NewWriterPolicy(f, p).Info().Policy; got != stream.PolicyBlksize && os.Getenv(policyEnv) == "" {
			t.Errorf("NewWriterPolicy(f, %d).Info().Policy = %v, want blksize", int(p), got)
		}
	}
	var zero stream.Reader
	if got := zero.Info().Fd; got != -1 {
		t.Errorf("zero Reader's Info().Fd = %d, want -1", got)
	}
}
