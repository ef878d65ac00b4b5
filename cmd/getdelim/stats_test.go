//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/streamstats"
)

// statsLine is the format another engineer's benchmark parses.
var statsLine = regexp.MustCompile(`^getdelim: stats: (in|out): fd=(\d+) mode=(full|line|none) size=(\d+) policy=(\S+) ` +
	`blksize=\d+ reads=(\d+) writes=(\d+) kernel=\d+ ahead=\d+ overlapped=\d+ waited=\d+ reason="[^"]*"$`)

func TestStats(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	tests := []struct {
		args   string
		env    []string
		stdin  string
		want   []string // per line: direction fd policy size ("-": any)
		status int
	}{
		{args: "--stats -n 3 three lines", want: []string{"in 3 blksize -", "in 3 blksize -", "out 1 blksize -"}},
		{args: "--stats -n 3", stdin: "lines", want: []string{"in 0 blksize -", "out 1 blksize -"}},
		{args: "--stats -n 3 three missing -", stdin: "three", status: 1,
			want: []string{"in 3 blksize -", "in 0 blksize -", "out 1 blksize -"}},
		{args: "--policy 64K --stats -c -5 lines", want: []string{"in 3 65536 65536", "out 1 65536 65536"}},
		{args: "--stats --loop -n -5 lines", env: []string{"STDIOBUF_POLICY=bufsiz"}, want: []string{"in 3 bufsiz -", "out 1 bufsiz -"}},
		{args: "--stats --policy coreutils -n 1", env: []string{"STDIOBUF_POLICY=nonsense"}, stdin: "three",
			want: []string{"in 0 coreutils -", "out 1 coreutils -"}},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			inv := invocation{args: strings.Split(tt.args, " "), dir: dir, env: tt.env, stdin: tt.stdin}
			status, stderr := inv.run(t, progs.getdelim, "getdelim", io.Discard)
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			var lines []string
			for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				if strings.Contains(l, ": stats: ") {
					lines = append(lines, l)
				}
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("stats lines:\n%s\nwant %d", stderr, len(tt.want))
			}
			for i, l := range lines {
				m := statsLine.FindStringSubmatch(l)
				if m == nil {
					t.Errorf("line %q does not match %v", l, statsLine)
					continue
				}
				want := strings.Fields(tt.want[i])
				fd := m[2]
				if want[1] == "3" && fd != "0" && fd != "1" && fd != "2" {
					fd = "3" // some descriptor of an opened file
				}
				got := []string{m[1], fd, m[5], m[4]}
				if want[3] == "-" {
					got[3] = "-"
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("line %q: got %v, want %v", l, got, want)
				}
				if calls := m[6] + m[7]; calls == "00" && m[1] == "out" {
					t.Errorf("line %q: no calls counted", l)
				}
			}
		})
	}
}

// TestMemory checks that the program does not hold its input: fed 48 MiB
// through a pipe, its peak resident size stays under 16 MiB. The peak is
// VmHWM, read while the program waits for the end of its input (the
// rusage of a child started with vfork counts its parent's pages).
func TestMemory(t *testing.T) {
	progs := findPrograms(t)
	var block bytes.Buffer
	for i := 0; block.Len() < 1<<20; i++ {
		fmt.Fprintf(&block, "%d %s\n", i, strings.Repeat("m", i%1583))
	}
	const limitKiB = 16 << 10
	for _, args := range []string{
		"-n 100000000", "-c 100000000", "-n -5", "-c -5", "-n -1000", "-c -1M",
		"--loop -n 100000000", "--loop -c 100000000", "--loop -n -5", "--loop -c -5",
	} {
		cmd := exec.Command(progs.getdelim, strings.Split(args, " ")...)
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for range 48 {
			if _, err := in.Write(block.Bytes()); err != nil {
				t.Fatal(err)
			}
		}
		peak, err := peakRSS(cmd.Process.Pid)
		in.Close()
		if werr := cmd.Wait(); werr != nil {
			t.Fatalf("getdelim %s: %v", args, werr)
		}
		if err != nil {
			t.Skipf("cannot read the peak resident size: %v", err)
		}
		t.Logf("getdelim %s: peak RSS %d KiB", args, peak)
		if peak > limitKiB {
			t.Errorf("getdelim %s: peak RSS %d KiB, want under %d KiB", args, peak, limitKiB)
		}
	}
}

// peakRSS returns a running process's peak resident set size in KiB.
func peakRSS(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	m := regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`).FindSubmatch(status)
	if m == nil {
		return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
	}
	return strconv.ParseInt(string(m[1]), 10, 64)
}

// TestStatsJSON: --stats=json writes what --stats writes as one line of
// JSON, after everything else on standard error.
func TestStatsJSON(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	text := invocation{args: []string{"--stats", "-n", "2", "three", "missing", "-"}, dir: dir, stdin: "three"}
	_, textErr := text.run(t, progs.getdelim, "getdelim", io.Discard)
	inv := invocation{args: []string{"--stats=json", "-n", "2", "three", "missing", "-"}, dir: dir, stdin: "three"}
	status, stderr := inv.run(t, progs.getdelim, "getdelim", io.Discard)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if status != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], "getdelim: cannot open 'missing'") {
		t.Fatalf("status %d, standard error %q; want 1, a message about missing and one line of JSON", status, stderr)
	}
	var r streamstats.Report
	dec := json.NewDecoder(strings.NewReader(lines[1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%q: %v", lines[1], err)
	}
	// The same streams as the text form, field for field.
	var fromText []string
	for _, l := range strings.Split(textErr, "\n") {
		if _, rest, ok := strings.Cut(l, ": stats: "); ok {
			fromText = append(fromText, rest)
		}
	}
	var fromJSON []string
	for _, s := range r.In {
		fromJSON = append(fromJSON, "in: "+infoText(s))
	}
	fromJSON = append(fromJSON, "out: "+infoText(r.Out))
	if diff := cmp.Diff(fromText, fromJSON); diff != "" {
		t.Errorf("--stats against --stats=json (-text +json):\n%s", diff)
	}
}

// infoText writes s as stream.Info's String does.
func infoText(s streamstats.Stream) string {
	return fmt.Sprintf("fd=%d mode=%s size=%d policy=%s blksize=%d reads=%d writes=%d kernel=%d ahead=%d overlapped=%d waited=%d reason=%q",
		s.Fd, s.Mode, s.Size, s.Policy, s.Blksize, s.Reads, s.Writes, s.Kernel, s.Ahead, s.Overlapped, s.Waited, s.Reason)
}
