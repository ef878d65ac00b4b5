//go:build linux

package stream

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/ptytest"
)

// TestReportTerminal checks a writer over a pseudo-terminal's line: kind
// terminal, its path under /dev/pts, line buffered for the terminal, one
// write for the line, and the tail after the newline held.
func TestReportTerminal(t *testing.T) {
	withReport(t)
	master, slave := ptytest.Open(t, 30*time.Second)
	w := NewWriter(slave)
	w.WriteString("line\nta")
	w.WriteString("il")
	ptytest.Expect(t, master, "line\n") // the pty is raw: no \r
	lines := reportFields(t, reportText())
	if len(lines) != 2 {
		t.Fatalf("report has %d lines, want the writer's and the total:\n%s", len(lines), reportText())
	}
	got := only(lines[0], "kind", "dir", "mode", "calls", "writes", "bytes", "held", "saved")
	want := map[string]string{"kind": "terminal", "dir": "write", "mode": "line", "calls": "2", "writes": "1", "bytes": "5", "held": "4", "saved": "0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("terminal's line (-want +got):\n%s", diff)
	}
	if p := lines[0]["path"]; !strings.HasPrefix(p, "/dev/pts/") {
		t.Errorf("path %q, want a /dev/pts/ name", p)
	}
	if r := lines[0]["reason"]; !strings.HasPrefix(r, "terminal: ") {
		t.Errorf("reason %q, want the terminal rule's", r)
	}
}
