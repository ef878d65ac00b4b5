//go:build linux

package stream_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// TestFDReaderCappedAtFileSize: under every policy a Reader over a regular
// file gets at most the file's size in whole st_blksize blocks (one block
// for an empty file, at least 16 bytes); a Writer over the same file, a
// size asked for with NewReaderSize and a Setvbuf size are not capped.
func TestFDReaderCappedAtFileSize(t *testing.T) {
	t.Setenv(policyEnv, "")
	dir := t.TempDir()
	policies := []stream.Policy{stream.PolicyBlksize, stream.PolicyBufsiz, stream.PolicyCoreutils, stream.PolicyBufio, 1 << 30, 1000, 10}
	tests := []struct {
		size int64
		want []int // the Reader's Size under each of policies
	}{
		{0, []int{4096, 4096, 4096, 4096, 4096, 1000, 16}},
		{1, []int{4096, 4096, 4096, 4096, 4096, 1000, 16}},
		{4096, []int{4096, 4096, 4096, 4096, 4096, 1000, 16}},
		{4097, []int{4096, 4096, 8192, 4096, 8192, 1000, 16}},
		{100000, []int{4096, 4096, 102400, 4096, 102400, 1000, 16}},
		{1 << 20, []int{4096, 4096, 262144, 4096, 1 << 20, 1000, 16}},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatInt(tt.size, 10), func(t *testing.T) {
			f, err := os.Create(filepath.Join(dir, strconv.FormatInt(tt.size, 10)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(tt.size); err != nil {
				t.Fatal(err)
			}
			if bs := blksizeOf(t, f); bs != 4096 {
				t.Skipf("the temporary directory's file system reports st_blksize %d; these cases are for 4096", bs)
			}
			var got []int
			for _, p := range policies {
				got = append(got, stream.NewReaderPolicy(f, p).Info().Size)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Reader sizes under %v (-want +got):\n%s", policies, diff)
			}
			if got := stream.NewWriterPolicy(f, 1<<30).Info().Size; got != 1<<30 {
				t.Errorf("Writer under policy 1 GiB: Size %d, want %d (no cap)", got, 1<<30)
			}
			if got := stream.NewReaderSize(f, 1<<20).Info().Size; got != 1<<20 {
				t.Errorf("NewReaderSize(f, 1 MiB): Size %d, want %d (no cap)", got, 1<<20)
			}
			r := stream.NewReader(f)
			if err := r.Setvbuf(stream.FullyBuffered, 1<<20); err != nil {
				t.Fatal(err)
			}
			if got := r.Info().Size; got != 1<<20 {
				t.Errorf("Setvbuf(FullyBuffered, 1 MiB): Size %d, want %d (no cap)", got, 1<<20)
			}
		})
	}
}

// TestSetDefaultPolicy: SetDefaultPolicy wins over STDIOBUF_POLICY for
// streams decided later, PolicyDefault goes back to the environment, and
// an invalid policy is refused with ErrInvalidPolicy and changes nothing.
func TestSetDefaultPolicy(t *testing.T) {
	t.Setenv(policyEnv, "bufsiz")
	t.Cleanup(func() { stream.SetDefaultPolicy(stream.PolicyDefault) })
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	policyOf := func() stream.Policy { return stream.NewWriter(f).Info().Policy }

	steps := []struct {
		set     stream.Policy
		wantErr error
		want    stream.Policy
	}{
		{stream.PolicyCoreutils, nil, stream.PolicyCoreutils},
		{stream.Policy(-9), stream.ErrInvalidPolicy, stream.PolicyCoreutils},
		{65536, nil, 65536},
		{stream.PolicyDefault, nil, stream.PolicyBufsiz},
	}
	for _, st := range steps {
		err := stream.SetDefaultPolicy(st.set)
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil) != (err == nil) {
			t.Errorf("SetDefaultPolicy(%v) = %v, want %v", st.set, err, st.wantErr)
		}
		if got := policyOf(); got != st.want {
			t.Errorf("after SetDefaultPolicy(%v): a new Writer's policy is %v, want %v", st.set, got, st.want)
		}
	}
	if err := stream.SetDefaultPolicy(stream.Policy(-9)); err == nil || err.Error() != "stream: invalid policy Policy(-9): want blksize, bufsiz, coreutils, bufio, readahead, cpython, rust, readahead:SIZE, default or a size such as 65536 or 64K" {
		t.Errorf("SetDefaultPolicy(-9) error: %v", err)
	}
}

// TestInvalidPolicy checks that SetPolicy refuses every Policy that is
// neither a named policy nor a positive size, however negative, and that
// String never panics.
func TestInvalidPolicy(t *testing.T) {
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

// TestInvalidPolicyConstructors checks that the constructors take
// an invalid policy as the default one, and that a stream that has not
// decided reports no descriptor.
func TestInvalidPolicyConstructors(t *testing.T) {
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
