//go:build linux

package osstdout_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// The path tests build testdata/paths plainly and with -files: a file
// written through a buffer and seen by another route, each time as the
// plain build sees it, while the routes that cannot see it write
// nothing out (the counts).

var pathsBuild programSet

// pathsPrograms returns testdata/paths built plainly and with -files.
func pathsPrograms(t *testing.T) (plain, files string) {
	t.Helper()
	bins := pathsBuild.build(t, "paths", plainBuild, "-files")
	return bins[plainBuild], bins["-files"]
}

// runPaths runs bin's case c on path with args, no bound, and returns
// its standard output, standard error and status.
func runPaths(t *testing.T, bin, c, path string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{c, path}, args...)...)
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	return runToEnd(t, cmd)
}

// runPathsBoth runs case c on a new file plainly and with -files, and
// returns the two standard outputs; -files must exit 0.
func runPathsBoth(t *testing.T, c string, args ...string) (plainOut, filesOut string) {
	t.Helper()
	plain, files := pathsPrograms(t)
	plainOut, _, _ = runPaths(t, plain, c, filepath.Join(t.TempDir(), "out"), args...)
	filesOut, errs, status := runPaths(t, files, c, filepath.Join(t.TempDir(), "out"), args...)
	if status != 0 {
		t.Fatalf("-files: status %d: %s", status, errs)
	}
	return plainOut, filesOut
}

// needRoot skips t unless it runs as root, which mounts need.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a file system")
	}
}

// mount mounts src on a new directory with mount(8)'s args, and
// unmounts it at the end of t; it skips t where mount fails.
func mount(t *testing.T, args ...string) string {
	t.Helper()
	needRoot(t)
	dir := t.TempDir()
	if out, err := exec.Command("mount", append(args, dir)...).CombinedOutput(); err != nil {
		t.Skipf("cannot mount (%v): %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// TestPathsSeen: after each buffered write, every route by which the
// program itself can see the file (a path, a link, /proc/self/fd, a
// second *File, os.DirFS, os.Root, the listing's Info) shows the size
// and the bytes the plain build shows.
func TestPathsSeen(t *testing.T) {
	routes := []string{
		"stat", "lstat", "direntinfo", "readdir", "openread", "readfile",
		"dirfs", "root", "rootdir", "hardlink", "symlink", "procfd", "second",
		"secondlate", "notdir",
	}
	for _, r := range routes {
		t.Run(r, func(t *testing.T) {
			want, got := runPathsBoth(t, "seen", r)
			if !strings.Contains(want, "record 1") && !strings.Contains(want, "size 9") {
				t.Fatalf("plain build saw nothing written: %q", want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("what -files saw (-plain +files):\n%s", diff)
			}
		})
	}
}

// TestPathsSeenSharedBit: a Stat of a buffered file finds its bytes
// written out while another buffer whose identity shares its bit of
// the mask of buffers that hold bytes is written out (Sync) just before:
// the bit stays set while either holds bytes.
func TestPathsSeenSharedBit(t *testing.T) {
	want, got := runPathsBoth(t, "sharedbit")
	if want != "27 54\n" {
		t.Fatalf("plain build: sizes %q, want \"27 54\\n\"", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the sizes -files's Stat saw (-plain +files):\n%s", diff)
	}
}

// TestPathsStatAllocs: a Stat, or an os.ReadFile, of another file while
// a buffer holds bytes allocates what the plain build's does: what tells
// whether it found a buffered file costs no allocation.
func TestPathsStatAllocs(t *testing.T) {
	for _, op := range []string{"stat", "readfile"} {
		t.Run(op, func(t *testing.T) {
			want, got := runPathsBoth(t, "statallocs", op)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("allocations per %s (-plain +files):\n%s", op, diff)
			}
		})
	}
}

// TestPathsRace: goroutines writing files of their own and a shared
// one, each stat'ing and reading its own by name after its writes, see
// every byte they wrote, under the race detector.
func TestPathsRace(t *testing.T) {
	pathsPrograms(t)
	bin := filepath.Join(pathsBuild.dir, "paths-files-race")
	if err := pathsBuild.buildWith("-files", bin, "./testdata/paths", "-race"); err != nil {
		t.Fatal(err)
	}
	out, errs, status := runPaths(t, bin, "concurrent", filepath.Join(t.TempDir(), "out"))
	if diff := cmp.Diff("done\n", out); diff != "" || status != 0 {
		t.Errorf("status %d, stdout (-want +got):\n%s\nstderr: %s", status, diff, errs)
	}
}

// pathPair is where a test writes a file (write) and where it looks at
// it (see).
type pathPair struct{ write, see string }

// mountedPairs are the places of a file seen through another mount: a
// bind mount of its directory, a tmpfs (the same path), and overlayfs,
// where the merged directory and the upper layer give one file two
// identities, each way round. Each skips its test where it cannot
// mount.
func mountedPairs() map[string]func(t *testing.T) pathPair {
	return map[string]func(t *testing.T) pathPair{
		"bind": func(t *testing.T) pathPair {
			src := t.TempDir()
			dst := mount(t, "--bind", src)
			return pathPair{filepath.Join(src, "out"), filepath.Join(dst, "out")}
		},
		"tmpfs": func(t *testing.T) pathPair {
			dir := mount(t, "-t", "tmpfs", "tmpfs")
			return pathPair{filepath.Join(dir, "out"), filepath.Join(dir, "out")}
		},
		"overlay-merged": func(t *testing.T) pathPair {
			upper, merged := overlay(t)
			return pathPair{filepath.Join(merged, "out"), filepath.Join(upper, "out")}
		},
		"overlay-upper": func(t *testing.T) pathPair {
			upper, merged := overlay(t)
			return pathPair{filepath.Join(upper, "out"), filepath.Join(merged, "out")}
		},
	}
}

// TestPathsSeenMounts: the same file seen through another mount: a bind
// mount of its directory, tmpfs, and overlayfs, where the merged
// directory and the upper layer give one file two identities, written
// through one and seen through the other: by a stat of the path and a
// read, and by a read alone, where the open file's own fstat tells
// which file it is.
func TestPathsSeenMounts(t *testing.T) {
	plain, files := pathsPrograms(t)
	cases := mountedPairs()
	for name, setup := range cases {
		for _, route := range []string{"alt", "altread"} {
			t.Run(name+"/"+route, func(t *testing.T) {
				var saw [2]string
				for i, bin := range []string{plain, files} {
					p := setup(t)
					out, errs, status := runPaths(t, bin, "seen", p.write, route, p.see)
					if status != 0 {
						t.Fatalf("%s: status %d: %s", filepath.Base(bin), status, errs)
					}
					saw[i] = out
				}
				if !strings.Contains(saw[0], "record 1") {
					t.Fatalf("plain build saw nothing written: %q", saw[0])
				}
				if diff := cmp.Diff(saw[0], saw[1]); diff != "" {
					t.Errorf("what -files saw (-plain +files):\n%s", diff)
				}
			})
		}
	}
}

// overlay mounts an overlayfs over a lower and an upper directory on a
// tmpfs of its own, and returns the upper and the merged directories.
func overlay(t *testing.T) (upper, merged string) {
	t.Helper()
	base := mount(t, "-t", "tmpfs", "tmpfs")
	for _, d := range []string{"lower", "upper", "work"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opts := "lowerdir=" + filepath.Join(base, "lower") + ",upperdir=" + filepath.Join(base, "upper") + ",workdir=" + filepath.Join(base, "work")
	merged = mount(t, "-t", "overlay", "overlay", "-o", opts)
	return filepath.Join(base, "upper"), merged
}

// TestPathsStdout: standard output, a regular file, is written out
// before a Stat by name sees its size, or a second *File reads it: in a
// directory of the test's and in each of mountedPairs (overlayfs's
// identities differ: -files asks the file system's type at the first
// look, not at standard output's decision).
//
// The stdoutsecond case reads the file through a second *File, which a
// look made while standard output held nothing found clear of every
// held file: standard output's lines, held after that look, must
// still come out before each read.
func TestPathsStdout(t *testing.T) {
	plain, files := pathsPrograms(t)
	places := mountedPairs()
	places["dir"] = func(t *testing.T) pathPair {
		p := filepath.Join(t.TempDir(), "out")
		return pathPair{p, p}
	}
	for _, c := range []string{"stdout", "stdoutsecond"} {
		for place, setup := range places {
			t.Run(c+"/"+place, func(t *testing.T) {
				var saw [2]string
				for i, bin := range []string{plain, files} {
					p := setup(t)
					out, err := os.Create(p.write)
					if err != nil {
						t.Fatal(err)
					}
					cmd := exec.Command(bin, c, p.see)
					cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
					var errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = out, &errb
					if err := cmd.Run(); err != nil {
						t.Fatalf("%s: %v: %s", bin, err, errb.String())
					}
					out.Close()
					saw[i] = errb.String()
				}
				if diff := cmp.Diff("7 14 21\n", saw[0]); diff != "" {
					t.Fatalf("plain build (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(saw[0], saw[1]); diff != "" {
					t.Errorf("sizes -files saw (-plain +files):\n%s", diff)
				}
			})
		}
	}
}

// TestPathsStdoutAsksNothing: a program that prints to a file on tmpfs
// and looks at no file makes no statfs or fstatfs: the trust of standard
// output's identity is asked only by an operation that compares it.
func TestPathsStdoutAsksNothing(t *testing.T) {
	_, files := pathsPrograms(t)
	dir := "/dev/shm"
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Type != 0x01021994 {
		dir = mount(t, "-t", "tmpfs", "tmpfs")
	}
	out, err := os.MkdirTemp(dir, "stdiobuf-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(out) })
	calls := straceSummary(t, filepath.Join(out, "stdout"), files, "print", "-", "1000")
	if n := calls["statfs"] + calls["fstatfs"]; n != 0 || calls["write"] == 0 {
		t.Errorf("-files printing to tmpfs: %d statfs calls, %d writes; want none and some\n%v", n, calls["write"], calls)
	}
}

// TestPathsTruncate: a buffered file truncated by name (os.Create) and
// written through a second *File, then through the first, ends as the
// plain build leaves it (the first *File's offset past the truncation).
func TestPathsTruncate(t *testing.T) {
	plain, files := pathsPrograms(t)
	var got [2]string
	for i, bin := range []string{plain, files} {
		path := filepath.Join(t.TempDir(), "out")
		if _, errs, status := runPaths(t, bin, "trunc", path); status != 0 {
			t.Fatalf("%s: status %d: %s", filepath.Base(bin), status, errs)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = string(b)
	}
	want := "new\n" + strings.Repeat("\x00", 46) + "tail\n"
	if diff := cmp.Diff(want, got[0]); diff != "" {
		t.Fatalf("plain build (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("-files (-plain +files):\n%s", diff)
	}
}

// TestPathsNotes: what an operation notes of a file, to skip its look
// next time, goes stale when a buffer is made; the output is the plain
// build's, which is checked first.
func TestPathsNotes(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		// A file os.Create made while a log holds bytes is known to be
		// no buffered file without an fstat, until a buffer is made: a
		// second *File's buffered append to it is written out before
		// the first *File writes over it.
		{"fresh", "\"aXYZ\"\n"},
		// A file found clear of every buffer while a read buffer holds
		// bytes is looked at again once a buffer is made: a read buffer
		// over its file, made after the look, is given back before the
		// file's next plain write, and the reader sees the bytes written.
		{"staleclear", "[\"x\" \"1\" \"234y\"]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plain, files := runPathsBoth(t, c.name)
			if plain != c.want {
				t.Fatalf("plain build: %q, want %q", plain, c.want)
			}
			if diff := cmp.Diff(plain, files); diff != "" {
				t.Errorf("-files (-plain +files):\n%s", diff)
			}
		})
	}
}

// TestPathsRename: a process that waits for a file's final name
// (inotify's IN_MOVED_TO) finds it complete, while the program that
// renamed it still runs and has told no one anything else.
func TestPathsRename(t *testing.T) {
	_, files := pathsPrograms(t)
	dir := t.TempDir()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(dir, "final")
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, files, "rename", filepath.Join(dir, "tmp"), final)
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			t.Fatal(err)
		}
		if movedTo(buf[:n], "final") {
			break
		}
	}
	b, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("record 1\nrecord 2\nrecord 3\n", string(b)); diff != "" {
		t.Errorf("the file at IN_MOVED_TO (-want +got):\n%s", diff)
	}
}

// movedTo reports whether the inotify events in b name name.
func movedTo(b []byte, name string) bool {
	for len(b) >= syscall.SizeofInotifyEvent {
		ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := syscall.SizeofInotifyEvent + int(ev.Len)
		got := strings.TrimRight(string(b[syscall.SizeofInotifyEvent:end]), "\x00")
		if got == name {
			return true
		}
		b = b[end:]
	}
	return false
}

// pathTree makes n files of a few bytes in dir, ten to a subdirectory,
// and returns dir.
func pathTree(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, "d"+strconv.Itoa(i/10))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "f"+strconv.Itoa(i)), []byte(strconv.Itoa(i)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// straceSummary runs bin's case c under strace -f -c with its standard
// output to the file at out, and returns the count of each system call.
func straceSummary(t *testing.T, out, bin string, args ...string) map[string]int {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return straceCounts(t, nil, f, bin, args...)
}

// straceCounts runs bin with args under strace -f -c, with no bound,
// standard input stdin (/dev/null if nil) and standard output stdout
// (with standard error, for the message of a failure, if nil), and
// returns the count of each system call; it skips the test where there
// is no strace.
func straceCounts(t *testing.T, stdin *os.File, stdout io.Writer, bin string, args ...string) map[string]int {
	t.Helper()
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("needs strace to count system calls")
	}
	log := filepath.Join(t.TempDir(), "strace")
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "strace", append([]string{"-f", "-c", "-U", "name,calls", "-o", log, bin}, args...)...)
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &errb
	if stdout == nil {
		cmd.Stdout = &errb
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("strace %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(\w+)\s+(\d+)\s*$`).FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[2])
		calls[m[1]] = n
	}
	return calls
}

// TestPathsCalls: programs that look at other files between their
// records (a walker printing to a file, a stat per record into a report,
// a grep -r into a report, a generator of files that logs each) make one
// write(2) per buffer under -files, not one per record, and no more
// system calls in all than plainly; files written once each make their
// plain calls and no more.
func TestPathsCalls(t *testing.T) {
	plain, files := pathsPrograms(t)
	const n = 500
	tree := pathTree(t, n)
	flat := filepath.Join(tree, "d0")
	src := filepath.Join(t.TempDir(), "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		if err := os.WriteFile(filepath.Join(src, "page"+strconv.Itoa(i)), []byte("a page\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// full makes a directory that holds the generator's output files.
	full := func() string {
		dir := t.TempDir()
		for i := 0; i < 1000; i++ {
			if err := os.WriteFile(filepath.Join(dir, "page"+strconv.Itoa(i)), []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	// moves makes a directory of 1000 empty files for each run to rename.
	moves := func() string {
		dir := t.TempDir()
		for i := 0; i < 1000; i++ {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, c := range []struct {
		name      string
		args      []string
		records   int
		maxWrites int
		extra     int // calls allowed over plain's
		decisions int // fstat calls allowed over plain's: each buffer's decision, and standard output's, which also tells whether a file is it
	}{
		// About 30 bytes a line: 15 KB, four buffers.
		{"walk", []string{"walk", "-", tree}, n, 8, 0, 1},
		{"statreport", []string{"statreport", "REPORT", flat}, 10, 2, 0, 2},
		{"grepr", []string{"grepr", "REPORT", tree}, 0, 8, 0, 2},
		// Files written once each: plain, with no decision.
		{"smallfiles", []string{"smallfiles", "-", "OUTDIR"}, 200, 200, 0, 0},
		// The same while a log holds bytes: 1000 new files and a log
		// line each (60 KB of log). os.WriteFile's open makes each
		// file with O_EXCL, so it is no buffered file and the log
		// stays buffered: a write per file and the log's few.
		{"generator", []string{"generator", "REPORT", src, "OUTDIR"}, 1000, 1040, 0, 2},
		// The same over files that are there: the first O_EXCL try
		// fails (one call), and no later open tries; the log, the one
		// file held, is written out before each truncating open (the
		// call an fstat of the file would cost), never also when
		// full. The log's decision (its fstat, and standard output's
		// to tell whether it is the same file) is two calls more.
		{"rewriter", []string{"generator", "REPORT", src, "FULLDIR"}, 2000, 2000, 3, 2},
		// A rename per record beside a log line each: the log, held
		// alone, is written out before each rename (the call the
		// rename's stat would cost), never also when full.
		{"mover", []string{"mover", "REPORT", "MOVES"}, 1000, 1000, 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls [2]map[string]int
			for i, bin := range []string{plain, files} {
				args := append([]string(nil), c.args...)
				for j, a := range args {
					switch a {
					case "REPORT":
						args[j] = filepath.Join(t.TempDir(), "report")
					case "OUTDIR":
						args[j] = t.TempDir()
					case "MOVES":
						args[j] = moves()
					case "FULLDIR":
						args[j] = full()
					}
				}
				calls[i] = straceSummary(t, filepath.Join(t.TempDir(), "stdout"), bin, args...)
			}
			// The calls on files; the runtime's own (futex, nanosleep,
			// the preemption signals, and pread64 and
			// sched_getaffinity as it looks at its CPU limit now and
			// then) vary from run to run.
			names := []string{"read", "write", "pwrite64", "openat", "close", "fstat", "newfstatat", "statx", "fcntl", "fstatfs", "statfs", "lseek", "getdents64", "ftruncate"}
			total := func(m map[string]int) int {
				s := 0
				for _, name := range names {
					s += m[name]
				}
				return s
			}
			if calls[0]["write"] < c.records {
				t.Fatalf("plain: %d write(2) calls, want >= %d (a call per record)", calls[0]["write"], c.records)
			}
			if w := calls[1]["write"]; w > c.maxWrites {
				t.Errorf("-files: %d write(2) calls, want <= %d (plain %d)", w, c.maxWrites, calls[0]["write"])
			}
			if p, f := total(calls[0]), total(calls[1]); f > p+c.extra {
				t.Errorf("-files: %d system calls, plain %d: -files makes more\nplain: %v\n-files: %v", f, p, calls[0], calls[1])
			}
			// Nor does it trade the writes it saves for calls of other
			// kinds: no fstat of a directory it lists (os.ReadDir's
			// Close), for one.
			for _, name := range names {
				allowed := c.extra
				if name == "fstat" {
					allowed = c.decisions
				}
				if p, f := calls[0][name], calls[1][name]; name != "write" && f > p+allowed {
					t.Errorf("-files: %d %s calls, plain %d: want at most %d more", f, name, p, allowed)
				}
			}
		})
	}
}

// TestPathsStdoutFlushKeepsReads: standard output, a regular file, takes
// nothing back from a file read through a buffer when it flushes: fmt.Fscan
// of a file with a line printed per number makes no lseek, and a read(2)
// per buffer of the file, not one more per buffer of output.
func TestPathsStdoutFlushKeepsReads(t *testing.T) {
	_, files := pathsPrograms(t)
	data := filepath.Join(t.TempDir(), "data")
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(strconv.Itoa(i) + "\n")
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := straceSummary(t, filepath.Join(t.TempDir(), "stdout"), files, "scanprint", "-", data)
	// 109 KB of numbers: 27 buffers of 4 KiB, and the reads before the
	// decision and at the end.
	if calls["lseek"] != 0 || calls["read"] > 40 {
		t.Errorf("-files: %d lseek and %d read calls, want 0 and <= 40", calls["lseek"], calls["read"])
	}
}

// TestPathsRecordsKeepBuffer: a file the program opened itself keeps its
// read buffer while the program writes a line per record to a pipe
// (standard error) and notes its offset per record: one read(2) per
// buffer, no lseek but the program's own Seeks, and the same output and
// offsets as plainly.
func TestPathsRecordsKeepBuffer(t *testing.T) {
	plain, files := pathsPrograms(t)
	data := filepath.Join(t.TempDir(), "data")
	recs := make([]byte, 0, 16*5000)
	for i := 0; i < 5000; i++ {
		recs = binary.LittleEndian.AppendUint64(recs, uint64(i))
		recs = binary.LittleEndian.AppendUint64(recs, uint64(i*i))
	}
	if err := os.WriteFile(data, recs, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		args      []string
		maxLseeks int
	}{
		{"log", []string{"records", "-", data}, 0},
		{"seek", []string{"records", "-", data, "seek"}, 5000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var outs [2]string
			for i, bin := range []string{plain, files} {
				out, errs, status := runPaths(t, bin, c.args[0], c.args[1], c.args[2:]...)
				if status != 0 {
					t.Fatalf("%s: status %d: %s", filepath.Base(bin), status, errs)
				}
				outs[i] = out + strconv.Itoa(strings.Count(errs, "\n"))
			}
			if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
				t.Errorf("output (-plain +files):\n%s", diff)
			}
			calls := straceSummary(t, filepath.Join(t.TempDir(), "stdout"), files, c.args...)
			// 80 KB: 20 buffers of 4 KiB, and the reads before the
			// decision.
			if calls["read"] > 40 || calls["lseek"] > c.maxLseeks {
				t.Errorf("-files: %d read and %d lseek calls, want <= 40 and <= %d", calls["read"], calls["lseek"], c.maxLseeks)
			}
		})
	}
}
