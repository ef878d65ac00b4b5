package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

func TestRun(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux and the BSDs
	tests := []struct {
		args       []string
		status     int
		wantPath   bool
		stderrPart string
	}{
		{args: []string{"100"}, wantPath: true},
		{args: []string{"0"}, status: 2, stderrPart: `want a positive line count, got "0"`},
		{args: []string{"ten"}, status: 2, stderrPart: `got "ten"`},
		{args: []string{"1", "2"}, status: 2, stderrPart: "usage:"},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		if status := run(tt.args, &stdout, &stderr); status != tt.status || !strings.Contains(stderr.String(), tt.stderrPart) {
			t.Errorf("run(%q) = %d, stderr %q; want %d, %q", tt.args, status, stderr.String(), tt.status, tt.stderrPart)
		}
		if !tt.wantPath {
			continue
		}
		path := strings.TrimSuffix(stdout.String(), "\n")
		st, err := os.Stat(path)
		if err != nil || st.Size() != seedinput.Size(100, seedinput.DefaultSeed) {
			t.Errorf("run(%q) printed %q: %v, want a file of %d bytes", tt.args, path, err, seedinput.Size(100, seedinput.DefaultSeed))
		}
		if home, _ := os.UserCacheDir(); filepath.Dir(path) != filepath.Join(home, "stdiobuf") {
			t.Errorf("path %q is not in the user cache directory %q", path, home)
		}
	}
}
