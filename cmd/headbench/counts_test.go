//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/streamstats"
)

const statsJSON = `{"in":[{"fd":0,"mode":"full","size":131072,"policy":"blksize","blksize":131072,"reads":1758,"writes":0,"kernel":2,"reason":"st_blksize 131072"}],` +
	`"out":{"fd":1,"mode":"full","size":4096,"policy":"blksize","blksize":4096,"reads":0,"writes":56228,"kernel":0,"reason":"st_blksize 4096"}}` + "\n"

func TestParseGetdelimStats(t *testing.T) {
	in := &streamstats.Stream{Fd: 0, Mode: "full", Size: 131072, Policy: "blksize", Blksize: 131072, Reads: 1758, Kernel: 2, Reason: "st_blksize 131072"}
	out := &streamstats.Stream{Fd: 1, Mode: "full", Size: 4096, Policy: "blksize", Blksize: 4096, Writes: 56228, Reason: "st_blksize 4096"}
	want := counts{Source: "getdelim --stats=json", Reads: 1758, Writes: 56228, Kernel: 2, In: in, Out: out}
	for _, tc := range []struct{ name, stderr string }{
		{"alone", statsJSON},
		{"after a warning, no final newline", "getdelim: warning: something\n" + strings.TrimSuffix(statsJSON, "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseGetdelimStats(tc.stderr)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseGetdelimStatsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, stderr, want string
	}{
		{"nothing", "", "getdelim --stats=json: unexpected end of JSON input"},
		{"the text form", "getdelim: stats: in: fd=0 mode=full\n", "getdelim --stats=json: invalid character"},
		{"a message after it", statsJSON + "getdelim: error\n", "getdelim --stats=json: invalid character"},
		{"two inputs", `{"in":[{},{}],"out":{}}`, "getdelim --stats=json: 2 input streams, want 1"},
		{"no input", `{"in":[],"out":{}}`, "getdelim --stats=json: 0 input streams, want 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseGetdelimStats(tc.stderr)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v, want one starting %q", err, tc.want)
			}
		})
	}
}

// straceSample is a trace as straceCommand writes it, of a program with
// two threads (the lines of bench/bufioloop, cat and the C loop, and the
// unfinished and resumed forms strace writes when threads overlap).
const straceSample = `9300  read(3, ""..., 20)                = 8
9300  read(3, ""..., 65536)             = 151
9315  read(3, ""..., 832)               = 832
9315  read(0, ""..., 8192)              = 8192
9315  write(1, ""..., 4096)             = 4096
9316  write(5, ""..., 8 <unfinished ...>
9315  read(0, ""..., 8192 <unfinished ...>
9316  <... write resumed>)              = 8
9315  <... read resumed>)               = 8192
9315  write(1, ""..., 4096)             = 4096
9315  readv(0, [{iov_base=""..., iov_len=8192}], 1) = 8192
9315  writev(1, [{iov_base=""..., iov_len=4096}], 1) = 4096
9315  copy_file_range(3, NULL, 1, NULL, 9223372035781033984, 0) = 3000000
9315  splice(0, NULL, 1, NULL, 131072, 0) = 0
9315  read(0, "", 8192)                 = 0
`

func TestParseStraceTrace(t *testing.T) {
	got, err := parseStraceTrace(straceSample)
	if err != nil {
		t.Fatal(err)
	}
	want := counts{Source: "strace -f", Reads: 7, Writes: 4, Kernel: 2, ReadSize: 8192, WriteSize: 4096}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Without -f's process IDs, and a tie between two sizes: the larger.
	got, err = parseStraceTrace("read(0, \"\"..., 1024) = 1024\nread(0, \"\"..., 2048) = 0\n")
	if err != nil || got.Reads != 2 || got.ReadSize != 2048 {
		t.Errorf("without process IDs: %+v, %v", got, err)
	}
}

func TestParseStraceTraceErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "strace: no read or write"},
		{"a summary", "% time     seconds  usecs/call     calls    errors syscall\n", "strace: unexpected line"},
		{"another call", "9315  openat(AT_FDCWD, \"f\", O_RDONLY) = 3\n", "strace: unexpected call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseStraceTrace(tc.in)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v, want one starting %q", err, tc.want)
			}
		})
	}
}
