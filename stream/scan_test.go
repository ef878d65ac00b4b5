package stream

import (
	"io"
	"os"
	"testing"
)

// overclaimer is a descriptor (it has Fd) whose Read claims one byte
// more than it was given room for, until its input is used up.
type overclaimer struct {
	fd   uintptr
	data []byte
}

func (o *overclaimer) Fd() uintptr { return o.fd }

func (o *overclaimer) Read(p []byte) (int, error) {
	if len(o.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, o.data)
	o.data = o.data[n:]
	return len(p) + 1, nil
}

// TestScannerBadReadCount: a reader that claims more bytes than the
// Scanner passed stops it with ErrBadReadCount, also when the Scanner is
// unbuffered (_STDBUF_I=0 on descriptor 0) and passes one byte of a larger
// buffer.
func TestScannerBadReadCount(t *testing.T) {
	for _, env := range []string{"unset", "0"} {
		t.Setenv("_STDBUF_I", env)
		if env == "unset" {
			os.Unsetenv("_STDBUF_I") // t.Setenv restores it at the end
		}
		s := NewScanner(&overclaimer{fd: 0, data: []byte("some lines\nof text\n")})
		for s.Scan() {
		}
		if s.Err() != ErrBadReadCount {
			t.Errorf("_STDBUF_I=%q: mode %v: Err() = %v, want ErrBadReadCount", env, s.Info().Mode, s.Err())
		}
	}
}
