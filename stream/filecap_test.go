package stream

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileCap checks the cap on a Reader's buffer over a regular file,
// also where the platform gives no block size (Windows, wasip1): there a
// block is BUFSIZ, so an empty or growing file is not read in bytes.
func TestFileCap(t *testing.T) {
	tests := []struct {
		name  string
		st    *fileStat
		limit int
		ok    bool
	}{
		{"fstat failed", nil, 0, false},
		{"pipe", &fileStat{blksize: 4096}, 0, false},
		{"empty file", &fileStat{blksize: 4096, regular: true}, 4096, true},
		{"one byte over a block", &fileStat{blksize: 4096, size: 4097, regular: true}, 8192, true},
		{"tiny blocks", &fileStat{blksize: 1, size: 3, regular: true}, minReadBufferSize, true},
		{"no block size, empty", &fileStat{regular: true}, glibcBUFSIZ, true},
		{"no block size, 100 bytes", &fileStat{size: 100, regular: true}, glibcBUFSIZ, true},
		{"no block size, 3 blocks", &fileStat{size: 2*glibcBUFSIZ + 1, regular: true}, 3 * glibcBUFSIZ, true},
	}
	for _, tt := range tests {
		limit, ok := fileCap(tt.st)
		if diff := cmp.Diff([]any{tt.limit, tt.ok}, []any{limit, ok}); diff != "" {
			t.Errorf("%s: fileCap (limit, ok) -want +got:\n%s", tt.name, diff)
		}
	}
}
