package shimtools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestThirdPartyStdbuf runs u-root's grep, which writes its matches through
// bufio.NewWriter(os.Stdout), under coreutils stdbuf into a pipe. libstdbuf
// never loads into a Go program, so the plain build fills bufio's 4096-byte
// buffer whatever stdbuf says; built with stdiobuf, the bufio it gets reads
// _STDBUF_O as stream does: -oL gives one write(2) per line, -oSIZE writes
// of SIZE bytes.
func TestThirdPartyStdbuf(t *testing.T) {
	ws := workspace(t)
	for _, tool := range []string{"stdbuf", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	var grep Tool
	for _, tl := range Tools() {
		if tl.Name == "grep" {
			grep = tl
		}
	}
	// 2000 matching lines of 32 bytes: 64000 bytes of output.
	const lines, width = 2000, 32
	var in strings.Builder
	for i := range lines {
		fmt.Fprintf(&in, "%-*s\n", width-1, fmt.Sprintf("match %d xyz", i))
	}
	input := filepath.Join(ws.Dir, "matches.txt")
	if err := os.WriteFile(input, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const out = lines * width
	tests := []struct {
		mode       string
		plain, sb  int // write(2) calls of each build
		sbDescribe string
	}{
		{"-oL", (out + 4095) / 4096, lines, "one per line"},
		{"-o16384", (out + 4095) / 4096, (out + 16383) / 16384, "16384-byte writes"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var got [2]Calls
			for i, b := range Builds() {
				bin, err := ws.Build(t.Context(), grep, b)
				if err != nil {
					t.Fatal(err)
				}
				c := new(strings.Builder)
				r := Run{Bin: "stdbuf", Args: append([]string{tt.mode, bin}, grep.Command(input)...), Input: input, Stdout: c}
				if got[i], err = Trace(t.Context(), r, ws.Dir); err != nil {
					t.Fatal(err)
				}
				if c.String() != in.String() {
					t.Fatalf("%s build under stdbuf %s wrote %d bytes, want the %d of the input", b, tt.mode, c.Len(), in.Len())
				}
			}
			t.Logf("stdbuf %s grep into a pipe: %d writes -> %d writes", tt.mode, got[0].Writes, got[1].Writes)
			if got[0].Writes != tt.plain {
				t.Errorf("go build: %d writes, want %d (bufio's 4096 bytes: libstdbuf cannot reach a Go program)", got[0].Writes, tt.plain)
			}
			if got[1].Writes != tt.sb {
				t.Errorf("stdiobuf build: %d writes, want %d (%s)", got[1].Writes, tt.sb, tt.sbDescribe)
			}
		})
	}
}
