//go:build linux

package osstdout_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The -files tests build testdata/files plainly and with `stdiobuf
// overlay -files`, run each case of it, and compare the files it writes
// and what it prints. Every run has a deadline (runDeadline), so a hang
// fails the test instead of stalling it.

const runDeadline = 60 * time.Second

// A programSet is one program of testdata built once per test binary in
// each of several ways, named by the `stdiobuf build` flags that build it
// (plainBuild: the plain go build). The builds go through `stdiobuf
// build`, not go build -overlay, so that the tests run under another
// toolchain too (GOTOOLCHAIN=go1.27.3 go test): one in the module cache
// needs the GOROOT `stdiobuf build` gives it.
type programSet struct {
	once sync.Once
	err  error
	dir  string            // the directory of the tool and the programs
	tool string            // cmd/stdiobuf, built into dir
	bins map[string]string // the programs, by the flags joined by spaces ("-" for none)
}

// plainBuild names the build without stdiobuf in a programSet.
const plainBuild = "-"

// wayName names a program built in way, after its flags:
// files-plain, files-files, report-build (`stdiobuf build`),
// report-stdout. Programs print their name in their messages.
func wayName(way string) string {
	switch way {
	case plainBuild:
		return "plain"
	case "":
		return "build"
	}
	return strings.ReplaceAll(strings.TrimLeft(way, "-"), " -", "-")
}

// build builds testdata/name once with each overlay in ways (their
// `stdiobuf overlay` arguments; plainBuild for none) and returns the
// programs by way.
func (s *programSet) build(t *testing.T, name string, ways ...string) map[string]string {
	t.Helper()
	skipShort(t)
	s.once.Do(func() {
		if s.dir, s.err = os.MkdirTemp("", "osstdout-"+name+"-"); s.err != nil {
			return
		}
		if s.tool, s.err = buildTool(s.dir); s.err != nil {
			return
		}
		s.bins = map[string]string{}
		for _, way := range ways {
			bin := filepath.Join(s.dir, name+"-"+wayName(way))
			if s.err = s.buildWith(way, bin, "./testdata/"+name); s.err != nil {
				return
			}
			s.bins[way] = bin
		}
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.bins
}

// buildWith builds pkg as out in way, with more go build flags.
func (s *programSet) buildWith(way, out, pkg string, flags ...string) error {
	if way == plainBuild {
		return goBuild("build", out, "", pkg, flags...)
	}
	args := append(append([]string{"build"}, strings.Fields(way)...), "-o", out)
	args = append(append(args, flags...), pkg)
	if b, err := exec.Command(s.tool, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("stdiobuf %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return nil
}

var filesBuild struct {
	programSet
	raceOnce sync.Once
	raceErr  error
	race     string
}

// filesPrograms returns testdata/files built plainly and with -files.
func filesPrograms(t *testing.T) (plain, files string) {
	t.Helper()
	bins := filesBuild.build(t, "files", plainBuild, "-files")
	return bins[plainBuild], bins["-files"]
}

// filesRace returns testdata/files built with -files and -race.
func filesRace(t *testing.T) string {
	t.Helper()
	filesPrograms(t)
	b := &filesBuild
	b.raceOnce.Do(func() {
		b.race = filepath.Join(b.dir, "files-race")
		b.raceErr = b.buildWith("-files", b.race, "./testdata/files", "-race")
	})
	if b.raceErr != nil {
		t.Fatal(b.raceErr)
	}
	return b.race
}

// ran is what one run of testdata/files did.
type ran struct {
	File   string // the file's contents after the run
	Stdout string
	Status int // -1: killed by a signal
}

// fileCmd is bin running case c on a file in a new directory, with
// STDIOBUF_MAXDELAY=none unless env says otherwise, so that no bound
// writes a file out where a flush is missing.
func fileCmd(t *testing.T, bin, c string, env []string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out")
	return fileCmdAt(t, bin, c, path, env, args...), path
}

// fileCmdAt is fileCmd on the file at path.
func fileCmdAt(t *testing.T, bin, c, path string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, append([]string{c, path}, args...)...)
	cmd.Env = append(append(os.Environ(), "STDIOBUF_MAXDELAY=none"), env...)
	cmd.WaitDelay = time.Second
	return cmd
}

// runFile runs case c of bin to its end.
func runFile(t *testing.T, bin, c string, args ...string) ran {
	t.Helper()
	r, _ := runFileAt(t, bin, c, nil, args...)
	return r
}

// runFileWith is runFile with setup called on the command and the file's
// path before the run.
func runFileWith(t *testing.T, bin, c string, setup func(cmd *exec.Cmd, path string), args ...string) ran {
	t.Helper()
	r, _ := runFileAt(t, bin, c, setup, args...)
	return r
}

// runFileAt is runFileWith, and also returns the file's path.
func runFileAt(t *testing.T, bin, c string, setup func(cmd *exec.Cmd, path string), args ...string) (ran, string) {
	t.Helper()
	cmd, path := fileCmd(t, bin, c, nil, args...)
	if setup != nil {
		setup(cmd, path)
	}
	return runCmd(t, cmd, path), path
}

// runCmd runs cmd, a case of testdata/files on the file at path, to its
// end, and returns what it did.
func runCmd(t *testing.T, cmd *exec.Cmd, path string) ran {
	t.Helper()
	out, errb, status := runToEnd(t, cmd)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", cmd, err, errb)
	}
	return ran{File: string(b), Stdout: strings.ReplaceAll(out, path, "FILE"), Status: status}
}

// runToEnd runs cmd to its end and returns its standard output, its
// standard error and its exit status (-1: killed by a signal).
func runToEnd(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	status = exitStatus(t, cmd.Run())
	if cmd.ProcessState != nil && !cmd.ProcessState.Exited() {
		status = -1
	}
	return out.String(), errb.String(), status
}

// TestFilesSameAsPlain: each idiom and each route by which the program
// itself, a child or another process sees the file gives the plain
// build's bytes: a return from main without Close, log.SetOutput(file),
// gob and json encoders, os.Stat and f.Stat, a child reading the file,
// a read back through another *File and os.ReadFile, a panic, a signal
// sent to a child that reads the file, the methods of a nil *File, a
// file dropped without Close while it holds bytes, then collected.
func TestFilesSameAsPlain(t *testing.T) {
	plain, files := filesPrograms(t)
	for _, c := range []string{"fprintf", "log", "gob", "json", "stat", "child", "reread", "panic", "signalchild", "nilfile", "dropped"} {
		t.Run(c, func(t *testing.T) {
			want := runFile(t, plain, c)
			if len(want.File) == 0 {
				t.Fatalf("the plain build wrote nothing: %+v", want)
			}
			got := runFile(t, files, c)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-files against the plain build (-plain +files):\n%s", diff)
			}
		})
	}
}

// TestFilesStructSize: what -files adds to os's file struct, which every
// *File pays for (a program may hold 15,000 open), is at most three
// words and the two counts that every operation on a file reads (fresh
// and clear: 16 bytes); a file's buffers and notes are allocated where
// it needs them.
func TestFilesStructSize(t *testing.T) {
	plain, files := filesPrograms(t)
	size := func(bin string) (n, word int) {
		t.Helper()
		r := runFile(t, bin, "filestruct")
		if _, err := fmt.Sscan(r.File, &n, &word); err != nil || r.Status != 0 {
			t.Fatalf("%s filestruct: %+v: %v", filepath.Base(bin), r, err)
		}
		return n, word
	}
	p, word := size(plain)
	f, _ := size(files)
	if most := 3*word + 16; f-p > most {
		t.Errorf("os's file struct is %d bytes plainly and %d under -files: %d added, more than three words and two counts (%d)", p, f, f-p, most)
	}
}

// TestFilesReadOwnOutput: with standard output a regular file, a read of
// it through another *File and os.Stat of its path see every line
// printed before, as in the plain build (no bound).
func TestFilesReadOwnOutput(t *testing.T) {
	plain, files := filesPrograms(t)
	run := func(bin string) string {
		cmd, path := fileCmd(t, bin, "readout", nil)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s readout: %v\n%s", bin, err, errb.String())
		}
		return errb.String()
	}
	want := run(plain)
	if want != "6 12\n" {
		t.Fatalf("the plain build saw %q, want %q", want, "6 12\n")
	}
	if got := run(files); got != want {
		t.Errorf("-files saw %q of its own output, the plain build %q", got, want)
	}
}

// TestFilesUnclosed: a program that lowers its limit of open files to 64,
// then creates many more files, writes each and drops it without Close,
// runs to its end as in the plain build, where the garbage collector
// closes the dropped files; and every file has its bytes.
func TestFilesUnclosed(t *testing.T) {
	plain, files := filesPrograms(t)
	const n = 1000
	// run returns what the run did and the files' contents, an error's
	// text for a file that is missing.
	run := func(bin string) (ran, []string) {
		r, path := runFileAt(t, bin, "unclosed", nil, strconv.Itoa(n))
		all := make([]string, n)
		for i := range all {
			b, err := os.ReadFile(path + "." + strconv.Itoa(i))
			all[i] = string(b)
			if err != nil {
				all[i] = strings.ReplaceAll(err.Error(), path, "FILE")
			}
		}
		return r, all
	}
	want, wantFiles := run(plain)
	if want.Status != 0 {
		t.Fatalf("the plain build failed: %+v", want)
	}
	got, gotFiles := run(files)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-files against the plain build (-plain +files):\n%s", diff)
	}
	bad := 0
	for i := range wantFiles {
		if gotFiles[i] != wantFiles[i] {
			if bad++; bad == 1 {
				t.Errorf("file %d holds %q, plainly %q", i, gotFiles[i], wantFiles[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d files differ from the plain build's", bad, n)
	}
}

// TestFilesRace: the Fprintf loop, and a file dropped while it holds
// bytes, under -race give the plain bytes.
func TestFilesRace(t *testing.T) {
	plain, _ := filesPrograms(t)
	race := filesRace(t)
	for _, c := range []string{"fprintf", "dropped"} {
		t.Run(c, func(t *testing.T) {
			want, got := runFile(t, plain, c), runFile(t, race, c)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-files -race against the plain build (-plain +race):\n%s", diff)
			}
		})
	}
}

// TestFilesWriteCount: the Fprintf loop makes one write(2) per buffer
// (strace), the plain build one per line, to a file os.Create made, to
// one os.Root's Create made, and to one open for reading and writing
// that read through a buffer first; to a file opened with O_SYNC, one
// per line, as plainly, whether os.OpenFile got the flag or os.NewFile
// made the *File of a descriptor the program opened with it.
func TestFilesWriteCount(t *testing.T) {
	plain, files := filesPrograms(t)
	for _, c := range []struct {
		name     string
		buffered bool
	}{
		{"fprintf", true},   // os.Create's file
		{"rootfill", true},  // os.Root's Create's
		{"rdwrfill", true},  // Fscan, then the lines, of an O_RDWR file
		{"syncfill", false}, // an O_SYNC file: plain
		{"newfilesync", false},
	} {
		count := func(bin string) int {
			return fileWrites(straceLog(t, "write", bin, c.name, filepath.Join(t.TempDir(), "out"), nil))
		}
		p, f := count(plain), count(files)
		// 2000 lines of about 20 bytes: about 40 KB, 10 buffers of 4 KiB.
		switch {
		case p < 2000:
			t.Errorf("%s: write(2) calls: plain %d, want >= 2000", c.name, p)
		case c.buffered && f > 20:
			t.Errorf("%s: write(2) calls: -files %d, want <= 20", c.name, f)
		case !c.buffered && f != p:
			t.Errorf("%s: write(2) calls: -files %d, want the plain build's %d", c.name, f, p)
		}
	}
}

// straceLog runs bin's case c on path under strace -f -e trace=CALLS,
// with stdin as its standard input if not nil and no bound, and returns
// strace's log; it skips the test where there is no strace.
func straceLog(t *testing.T, calls, bin, c, path string, stdin *os.File) string {
	t.Helper()
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("needs strace to count system calls")
	}
	log := filepath.Join(t.TempDir(), "strace")
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "strace", "-f", "-e", "trace="+calls, "-o", log, bin, c, path)
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("strace %s %s: %v\n%s", bin, c, err, out)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fileWrites counts the write(2) calls in an strace log to descriptors
// other than 0, 1 and 2: the file's, and the runtime's eventfd wake-ups
// if any.
func fileWrites(log string) int {
	n := 0
	for _, m := range regexp.MustCompile(`(?m)\bwrite\((\d+),`).FindAllStringSubmatch(log, -1) {
		if fd, _ := strconv.Atoi(m[1]); fd > 2 {
			n++
		}
	}
	return n
}

// TestFilesNoThreadUntilHeld: a program in which no buffer takes a byte
// (a file written whole by os.WriteFile, nothing printed) starts no more
// threads than plainly: the thread that lets a fatal signal's death wait
// for the flush starts before a buffer's first byte, not at start-up.
// The runtime starts threads as its goroutines need them, so the least
// count of several runs is compared, the two builds' runs interleaved so
// that the machine's load weighs on both alike.
func TestFilesNoThreadUntilHeld(t *testing.T) {
	plain, files := filesPrograms(t)
	clone := regexp.MustCompile(`(?m)\bclone3?\(`)
	least := map[string]int{}
	for range 20 {
		for _, bin := range []string{plain, files} {
			log := straceLog(t, "clone,clone3", bin, "writefile", filepath.Join(t.TempDir(), "out"), nil)
			c := len(clone.FindAllString(log, -1))
			if n, seen := least[bin]; !seen || c < n {
				least[bin] = c
			}
		}
	}
	if p, f := least[plain], least[files]; f > p {
		t.Errorf("threads started (clone, the least of 20 runs): %d under -files, %d plainly", f, p)
	}
}

// TestFilesDone: the file is complete when the program says "done" on a
// pipe, while it still runs.
func TestFilesDone(t *testing.T) {
	_, files := filesPrograms(t)
	cmd, path := fileCmd(t, files, "done", nil)
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "done\n" {
		t.Fatalf("the program said %q, %v", line, err)
	}
	complete(t, path, "at done")
}

// TestFilesSocket: the file is complete when the program says "done" on
// a TCP connection (package net, through internal/poll), while it still
// runs.
func TestFilesSocket(t *testing.T) {
	_, files := filesPrograms(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cmd, path := fileCmd(t, files, "socket", nil, ln.Addr().String())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(runDeadline))
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(runDeadline))
	if line, err := bufio.NewReader(conn).ReadString('\n'); line != "done\n" {
		t.Fatalf("the program said %q, %v", line, err)
	}
	complete(t, path, "at done")
}

// complete checks that the file at path holds every line of fill, when
// says when.
func complete(t *testing.T, path, when string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(expectedLines(), string(b)); diff != "" {
		t.Errorf("the file %s (-want +got):\n%s", when, diff)
	}
}

// expectedLines is what testdata/files's fill writes.
func expectedLines() string {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	return b.String()
}

// TestFilesSigterm: SIGTERM from outside after the program said ready:
// it dies of the signal with the file complete.
func TestFilesSigterm(t *testing.T) {
	_, files := filesPrograms(t)
	cmd, path := fileCmd(t, files, "signal", nil)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	startReady(t, cmd)
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("the program ended with %v, want death by SIGTERM", err)
	}
	complete(t, path, "after SIGTERM")
}

// startReady starts cmd and waits for it to say "ready" on its standard
// output.
func startReady(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the program said %q, %v", line, err)
	}
}

// TestFilesPoll: a reader that polls the file, hearing nothing from the
// program, sees its one line within the bound while the program waits
// (here 50ms; the deadline allows a loaded machine), also when the
// program dropped the file without Close and collects garbage.
func TestFilesPoll(t *testing.T) {
	_, files := filesPrograms(t)
	for _, c := range [][]string{{"poll"}, {"dropped", "wait"}} {
		t.Run(c[0], func(t *testing.T) {
			cmd, path := fileCmd(t, files, c[0], []string{"STDIOBUF_MAXDELAY=50ms"}, c[1:]...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer cmd.Process.Kill()
			start := time.Now()
			for {
				b, _ := os.ReadFile(path)
				if string(b) == "the one line\n" {
					t.Logf("seen after %v", time.Since(start))
					return
				}
				if time.Since(start) > 10*time.Second {
					t.Fatalf("after %v the file holds %q", time.Since(start), b)
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}

// TestFilesBlock: a Write of the buffer's size goes straight to the
// file, as bufio's Writer sends it, not into the buffer: with no bound,
// a reader sees it while the program sleeps.
func TestFilesBlock(t *testing.T) {
	_, files := filesPrograms(t)
	cmd, path := fileCmd(t, files, "block", []string{"STDIOBUF_POLICY=4096"}, "4096")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		fi, err := os.Stat(path)
		if err == nil && fi.Size() == 4096 {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("after %v: %v, %v; want 4096 bytes", time.Since(start), fi, err)
		}
	}
}

// TestFilesAppend: four processes appending lines to one O_APPEND file
// leave only whole lines, every one of them.
func TestFilesAppend(t *testing.T) {
	_, files := filesPrograms(t)
	const procs, n = 4, 3000
	path := filepath.Join(t.TempDir(), "log")
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
			defer cancel()
			out, err := exec.CommandContext(ctx, files, "append", path, "p"+strconv.Itoa(p), strconv.Itoa(n)).CombinedOutput()
			if err != nil {
				errs[p] = fmt.Errorf("process %d: %v\n%s", p, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^p([0-3]) (\d+) (x*)$`)
	next := make([]int, procs) // each process's lines come in its order
	bad := 0
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l == "" {
			continue
		}
		m := re.FindStringSubmatch(strings.TrimSuffix(l, "\n"))
		if m == nil || !strings.HasSuffix(l, "\n") {
			if bad++; bad < 5 {
				t.Errorf("a broken line: %q", l)
			}
			continue
		}
		p, _ := strconv.Atoi(m[1])
		i, _ := strconv.Atoi(m[2])
		if i != next[p] || len(m[3]) != i%97 {
			if bad++; bad < 5 {
				t.Errorf("line %q, want p%d's line %d", l, p, next[p])
			}
		}
		next[p] = i + 1
	}
	if diff := cmp.Diff([]int{n, n, n, n}, next); diff != "" {
		t.Errorf("lines per process (-want +got):\n%s", diff)
	}
}

// smallFS mounts a tmpfs of 64 KiB and returns its directory.
func smallFS(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// fullFS mounts a small tmpfs and fills it, and returns its directory.
func fullFS(t *testing.T) string {
	t.Helper()
	dir := smallFS(t)
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	for _, n := range []int{1024, 256, 64, 1} {
		for {
			if _, err := f.Write(chunk[:n]); err != nil {
				break
			}
		}
	}
	return dir
}

// fsOutcome is how a program of testdata/files ended: its status and
// standard error, the path of its file replaced with FILE.
type fsOutcome struct {
	Status int
	Stderr string
}

// runOnFS runs case c of bin on the file out in dir, removed first, and
// returns how it ended.
func runOnFS(t *testing.T, dir, bin, c string, args ...string) fsOutcome {
	t.Helper()
	path := filepath.Join(dir, "out")
	os.Remove(path)
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{c, path}, args...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	status := exitStatus(t, cmd.Run())
	return fsOutcome{status, strings.ReplaceAll(errb.String(), path, "FILE")}
}

// TestFilesFillingDisk: once a Write meets a full file system, every
// later Write fails, as each of the plain build's write(2)s does. Under
// -files the flush that meets the error writes part of the buffer (its
// lines are not a page long) and leaves room in it; a later Write that
// fits that room still gets the error.
func TestFilesFillingDisk(t *testing.T) {
	plain, files := filesPrograms(t)
	dir := smallFS(t)
	want := fsOutcome{3, "stubborn: write FILE: no space left on device; then 100 of 100 writes failed\n"}
	for _, bin := range []string{plain, files} {
		if diff := cmp.Diff(want, runOnFS(t, dir, bin, "stubborn")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", filepath.Base(bin), diff)
		}
	}
}

// TestFilesFullDisk: on a full file system, a careful program ends
// through its own error path as in the plain build; a careless one that
// never sees the error (its bytes fit the buffer) gets it reported at
// exit, naming the file, and exits 1 where the plain build exits 0.
func TestFilesFullDisk(t *testing.T) {
	plain, files := filesPrograms(t)
	dir := fullFS(t)
	careful := fsOutcome{3, "careful: write FILE: no space left on device\n"}
	for _, bin := range []string{plain, files} {
		if diff := cmp.Diff(careful, runOnFS(t, dir, bin, "careful")); diff != "" {
			t.Errorf("%s careful (-want +got):\n%s", filepath.Base(bin), diff)
		}
	}
	if diff := cmp.Diff(fsOutcome{0, ""}, runOnFS(t, dir, plain, "careless", "2000")); diff != "" {
		t.Errorf("plain careless (-want +got):\n%s", diff)
	}
	want := fsOutcome{1, "files-files: write error: FILE: No space left on device\n"}
	if diff := cmp.Diff(want, runOnFS(t, dir, files, "careless", "2000")); diff != "" {
		t.Errorf("-files careless (-want +got):\n%s", diff)
	}
	// A program that drops the error only Close or Sync returned, and
	// would exit 0, exits 1 with the error reported; one that acts on
	// Close's error keeps its own message and status.
	for _, tc := range []struct {
		name        string
		plain, want fsOutcome
	}{
		{"deferclose", fsOutcome{1, "deferclose: write FILE: no space left on device\n"}, want},
		{"syncdrop", fsOutcome{1, "syncdrop: write FILE: no space left on device\n"}, want},
		{"checkclose", fsOutcome{3, "checkclose: write FILE: no space left on device\n"}, fsOutcome{3, "checkclose: write FILE: no space left on device\n"}},
	} {
		if diff := cmp.Diff(tc.plain, runOnFS(t, dir, plain, tc.name)); diff != "" {
			t.Errorf("plain %s (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff(tc.want, runOnFS(t, dir, files, tc.name)); diff != "" {
			t.Errorf("-files %s (-want +got):\n%s", tc.name, diff)
		}
	}
}
