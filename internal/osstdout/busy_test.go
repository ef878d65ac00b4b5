//go:build linux

package osstdout_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The tests here check the rule of internal/osstdout/std's
// zz_stdiobuf_buffer.go: nothing waits on a write(2) blocked on a peer
// but a write, and the bound does not depend on the goroutine that arms
// it. A program that breaks the rule hangs, so each test has a deadline
// far longer than the program needs, after which it kills the program
// and fails.

// hangWait is how long a test lets a program run before it calls it hung.
const hangWait = 20 * time.Second

// TestCoprocessFullPipes: a goroutine writes 2 MB to standard output
// (small writes, then a large one) while main reads all of standard
// input, and the peer writes all its input before it reads any output,
// as stdio JSON-RPC peers and language servers do. The plain build
// finishes; so must the -stdout build, whose reads of standard input must
// not wait for a flush stuck on the full output pipe.
func TestCoprocessFullPipes(t *testing.T) {
	plain, buffered := programs(t)
	input := bytes.Repeat([]byte("input line\n"), 200000)
	var want strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&want, "line %07d\n", i)
	}
	want.WriteString(strings.Repeat("x", 700000) + "\n")
	for _, bin := range []string{plain, buffered} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "coproc")
			var errBuf bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &errBuf
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			inR.Close()
			outW.Close()
			defer outR.Close()
			type outcome struct {
				out      []byte
				io, wait error
			}
			done := make(chan outcome, 1)
			go func() {
				_, werr := inW.Write(input)
				inW.Close()
				out, rerr := io.ReadAll(outR)
				done <- outcome{out, errors.Join(werr, rerr), cmd.Wait()}
			}()
			select {
			case o := <-done:
				if o.io != nil {
					t.Fatalf("talking to the program: %v (stderr %q)", o.io, errBuf.String())
				}
				got := result{Stdout: string(o.out), Stderr: errBuf.String(), Status: exitStatus(t, o.wait)}
				wantRes := result{Stdout: want.String(), Stderr: fmt.Sprintf("read %d <nil>\n", len(input))}
				if got.Stdout != wantRes.Stdout {
					t.Errorf("standard output: %d bytes, want %d", len(got.Stdout), len(wantRes.Stdout))
					got.Stdout = wantRes.Stdout
				}
				if diff := cmp.Diff(wantRes, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			case <-time.After(hangWait):
				cmd.Process.Kill()
				<-done
				t.Errorf("hung for %v: a read of standard input waited for the stuck flush", hangWait)
			}
		})
	}
}

// TestStuckWriter: while a goroutine is blocked in write(2) on a full
// pipe nobody reads, exec.Command("true").Run(), Fd, Stat and Dup3 onto
// descriptor 1 do not wait for it, in the plain build and under -stdout
// (the flush under way has everything buffered): each takes well under a
// second.
func TestStuckWriter(t *testing.T) {
	plain, buffered := programs(t)
	for _, bin := range []string{plain, buffered} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			stderr, err, hung := runUnread(t, bin, "stuck", hangWait)
			if hung {
				t.Fatalf("hung for %v while a writer was stuck; stderr so far: %q", hangWait, stderr)
			}
			if status := exitStatus(t, err); status != 0 {
				t.Errorf("exit status %d, stderr %q", status, stderr)
			}
			var names []string
			for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				f := strings.Fields(line)
				if len(f) != 3 || f[2] != "<nil>" {
					t.Errorf("line %q, want NAME MILLISECONDS <nil>", line)
					continue
				}
				names = append(names, f[0])
				if ms, err := strconv.Atoi(f[1]); err != nil || ms >= 1000 {
					t.Errorf("%s took %s ms while a writer was stuck, want well under 1000", f[0], f[1])
				}
			}
			if diff := cmp.Diff([]string{"exec", "fd", "stat", "dup3"}, names); diff != "" {
				t.Errorf("calls timed (-want +got):\n%s", diff)
			}
			t.Logf("%s", stderr)
		})
	}
}

var (
	synctestOnce sync.Once
	synctestErr  error
	synctestBins [2]string // testdata/synctest's test binary, built plainly and with -stdout
)

// synctestPrograms builds testdata/synctest's test binary plainly and
// with the -stdout overlay.
func synctestPrograms(t *testing.T) (plain, buffered string) {
	t.Helper()
	programs(t)
	synctestOnce.Do(func() {
		for i, ov := range []string{"", stdoutOv} {
			synctestBins[i] = filepath.Join(binDir, fmt.Sprintf("synctest-%d.test", i))
			if synctestErr = goBuild("test", synctestBins[i], ov, "./testdata/synctest", "-c"); synctestErr != nil {
				return
			}
		}
	})
	if synctestErr != nil {
		t.Fatal(synctestErr)
	}
	return synctestBins[0], synctestBins[1]
}

// TestSynctestBound: a test binary whose tests write inside a
// testing/synctest bubble and then outside it, and the reverse, with
// standard output and standard error on one pipe as `go test` runs it:
// each line arrives while the program waits for it to be read (a few
// bounds at most, on a loaded machine), and the tests pass, as in the
// plain build. The bound's timer must belong to no bubble, and its clock
// must be the real one.
func TestSynctestBound(t *testing.T) {
	plain, buffered := synctestPrograms(t)
	cases := []struct {
		test  string
		texts []string
	}{
		{"TestInsideThenOutside", []string{"inside\n", "outside\n", "PASS\n"}},
		{"TestOutsideThenInside", []string{"outside\n", "inside\n", "PASS\n"}},
	}
	for _, c := range cases {
		for _, bin := range []string{plain, buffered} {
			t.Run(c.test+"/"+filepath.Base(bin), func(t *testing.T) {
				conv := conversation{
					args:   []string{"-test.run=^" + c.test + "$"},
					texts:  c.texts,
					merged: true,
					wait:   5 * time.Second,
				}
				if _, status := converse(t, bin, toPipe, conv); status != 0 {
					t.Errorf("exit status %d", status)
				}
			})
		}
	}
}

// TestPrintersMerged: goroutines alternate fmt.Println and the runtime's
// print under 2>&1 while collections stop the world: the program ends,
// and each goroutine's lines keep their order, as in the plain build. The
// print hook waits for a flush under way, and for the buffer's lock while
// another goroutine holds it, but gives up only where its own goroutine
// could be the holder.
func TestPrintersMerged(t *testing.T) {
	plain, buffered := programs(t)
	for _, bin := range []string{plain, buffered} {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd := exec.Command(bin, "printers")
			cmd.Stdout, cmd.Stderr = f, f
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if status := exitStatus(t, err); status != 0 {
					t.Fatalf("exit status %d", status)
				}
			case <-time.After(hangWait):
				cmd.Process.Kill()
				<-done
				t.Fatalf("hung for %v", hangWait)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			next := make(map[string]string) // the line each goroutine prints next
			for g := range 4 {
				next[strconv.Itoa(g)] = fmt.Sprintf("out %d 0", g)
			}
			for _, line := range strings.Split(string(b), "\n") {
				f := strings.Fields(line)
				if line == "" {
					continue
				}
				if len(f) != 3 || f[0] != "out" && f[0] != "err" {
					t.Fatalf("line %q: lines were mixed", line)
				}
				if line != next[f[1]] {
					t.Fatalf("goroutine %s: %q where %q comes next", f[1], line, next[f[1]])
				}
				i, _ := strconv.Atoi(f[2])
				if f[0] == "out" {
					next[f[1]] = fmt.Sprintf("err %s %d", f[1], i)
				} else {
					next[f[1]] = fmt.Sprintf("out %s %d", f[1], i+1)
				}
			}
			for g := range 4 {
				if want := fmt.Sprintf("out %d 300", g); next[strconv.Itoa(g)] != want {
					t.Errorf("goroutine %d: %q is the next line, want all 300 pairs", g, next[strconv.Itoa(g)])
				}
			}
		})
	}
}
