package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCounts checks the counts per descriptor of a report and of a
// trace: a bufio stream over a line that counts system calls is left
// out; the runtime's calls, the excluded report file and calls on no
// descriptor are not the program's.
func TestCounts(t *testing.T) {
	dir := t.TempDir()
	report := `stdiobuf report: fd=5 buffer=bufio kind=file path="/in" dir=read mode=full size=4096 policy=blksize reason="st_blksize 4096" reads=7 kernel=0 bytes=100
stdiobuf report: fd=5 buffer=none kind=file path="/in" dir=read mode=none size=0 policy=none reason="descriptor handed out" reads=7 kernel=0 bytes=100
stdiobuf report: fd=0 buffer=files kind=pipe path="pipe:[9]" dir=read mode=full size=4096 policy=blksize reason="st_blksize 4096" reads=5 kernel=2 bytes=50
stdiobuf report: fd=1 buffer=bufio kind=file path="/out" dir=write mode=full size=4096 policy=blksize reason="st_blksize 4096" calls=10 writes=3 kernel=0 bytes=30 held=0 saved=0
stdiobuf report: total streams=4 writers=1 calls=10 writes=3 saved=0 readers=3 reads=12 kernel=2
`
	trace := `100 read(3</proc/self/maps>, "", 10) = 0
100 read(5</in>, "x", 4096) = 1
100 pread64(5</in>, "x", 4096, 0) = 1
101 read(0<pipe:[9]>, "x", 1) = 1
101 tee(0<pipe:[9]>, 8<pipe:[10]>, 4096, 0) = 4096
100 write(1</out>, "x", 1) = 1
100 writev(1</out>, [], 2) = 2
100 write(6</tmp/report>, "stdiobuf report", 15) = 15
100 write(4<anon_inode:[eventfd]>, "\1", 8) = 8
100 --- SIGURG {si_signo=SIGURG} ---
100 exit_group(0) = ?
`
	rp, tp := filepath.Join(dir, "report"), filepath.Join(dir, "trace")
	if err := os.WriteFile(rp, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tp, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, total, err := readReport(rp)
	if err != nil {
		t.Fatal(err)
	}
	wantRep := map[string]counts{
		"5</in>":      {reads: 7},
		"0<pipe:[9]>": {reads: 5, kernel: 2},
		"1</out>":     {writes: 3},
	}
	if diff := cmp.Diff(wantRep, rep, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(counts{reads: 12, writes: 3, kernel: 2}, total, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	tr, err := readTrace(tp, excludes{"/tmp/report"})
	if err != nil {
		t.Fatal(err)
	}
	wantTr := map[string]counts{
		"5</in>":      {reads: 2},
		"0<pipe:[9]>": {reads: 1, kernel: 1},
		"1</out>":     {writes: 2},
	}
	if diff := cmp.Diff(wantTr, tr, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}
