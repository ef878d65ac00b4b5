//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
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

func TestBadPolicy(t *testing.T) {
	progs := findPrograms(t)
	tests := []struct {
		args, env, want string
	}{
		{args: "--policy nope", want: "getdelim: invalid buffer policy for --policy: 'nope' " +
			"(want blksize, bufsiz, coreutils, bufio, readahead or a size such as 64K)\n"},
		{args: "--policy=0", want: "getdelim: invalid buffer policy for --policy: '0' " +
			"(want blksize, bufsiz, coreutils, bufio, readahead or a size such as 64K)\n"},
		{args: "-n 1", env: "STDIOBUF_POLICY=64Q", want: "getdelim: invalid buffer policy for STDIOBUF_POLICY: '64Q' " +
			"(want blksize, bufsiz, coreutils, bufio, readahead or a size such as 64K)\n"},
	}
	for _, tt := range tests {
		inv := invocation{args: strings.Split(tt.args, " "), env: []string{tt.env}}
		status, stderr := inv.run(t, progs.getdelim, "getdelim", io.Discard)
		if status != 1 || stderr != tt.want {
			t.Errorf("getdelim %s (%s): status %d, stderr %q; want 1, %q", tt.args, tt.env, status, stderr, tt.want)
		}
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
