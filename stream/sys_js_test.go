package stream

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSFstat checks what the seam makes of a file and of /dev/null under
// Node (GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec"):
// a file is regular with its size and Node's st_blksize; /dev/null is a
// character device, which js has no test to tell from a terminal, so it
// counts as one.
func TestJSFstat(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	type got struct {
		Kind     fileKind
		Size     int64
		Terminal bool
		Blksize  bool // st_blksize > 0
	}
	tests := []struct {
		name string
		want got
	}{
		{name, got{kindRegular, 100, false, true}},
		{os.DevNull, got{kindChar, 0, true, true}},
	}
	for _, tt := range tests {
		f, err := os.Open(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		var st fileStat
		ok := statFile(f.Fd(), &st)
		f.Close()
		if !ok {
			t.Fatalf("%s: fstat failed", tt.name)
		}
		g := got{st.kind, st.size, st.terminal, st.blksize > 0}
		if diff := cmp.Diff(tt.want, g); diff != "" {
			t.Errorf("%s: -want +got:\n%s", tt.name, diff)
		}
	}
}
