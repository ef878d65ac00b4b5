//go:build linux

package osstdout_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

// The -files tests of block devices: testdata/files's cases run on a
// loop device (root, losetup), plainly and with -files, compared.

// deviceSpan is how much of the device the tests set before each run
// and read after it: more than any case writes.
const deviceSpan = 64 << 10

// loopDevice attaches a loop device over an 8 MiB image of zeros and
// returns its path; it is detached when the test ends, which is skipped
// where that cannot be done.
func loopDevice(t *testing.T) string {
	t.Helper()
	return fsmount.LoopForTest(t, make([]byte, 8<<20))
}

// setDevice writes s at the start of dev, zeros after it up to
// deviceSpan.
func setDevice(t *testing.T, dev, s string) {
	t.Helper()
	f, err := os.OpenFile(dev, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, deviceSpan)
	copy(b, s)
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// runDevice runs case c of bin on dev, set to s first, to its end, and
// returns what it did, with the first deviceSpan bytes of dev, zeros at
// the end left out, as the file.
func runDevice(t *testing.T, bin, c, dev, s string, args ...string) ran {
	t.Helper()
	setDevice(t, dev, s)
	r := runCmd(t, fileCmdAt(t, bin, c, dev, nil, args...), dev)
	r.File = strings.TrimRight(r.File[:min(len(r.File), deviceSpan)], "\x00")
	r.Stdout = strings.ReplaceAll(r.Stdout, dev, "FILE")
	return r
}

// secondNode makes another block device node for dev's device in a new
// directory, and returns its path; the test is skipped where the node
// cannot be made or opened.
func secondNode(t *testing.T, dev string) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(dev, &st); err != nil {
		t.Fatal(err)
	}
	node := filepath.Join(t.TempDir(), "node")
	if err := syscall.Mknod(node, syscall.S_IFBLK|0o600, int(st.Rdev)); err != nil {
		t.Skipf("mknod a second node for %s: %v", dev, err)
	}
	f, err := os.OpenFile(node, os.O_RDWR, 0)
	if err != nil {
		t.Skipf("open the second node of %s (a file system mounted nodev?): %v", dev, err)
	}
	f.Close()
	return node
}

// TestFilesBlockDevice: on a block device, the Fprintf loop and
// fmt.Fscan give the plain build's bytes and output; and with a second
// node for the same device, writes through both names, and reads through
// one of what the other wrote, happen in the program's order (the two
// names are one file: st_rdev).
func TestFilesBlockDevice(t *testing.T) {
	plain, files := filesPrograms(t)
	dev := loopDevice(t)
	node := secondNode(t, dev)
	for _, c := range []struct {
		name, c, input string
		args           []string
	}{
		{"fprintf", "fprintf", "", nil},
		{"fscan", "fscan", readInput(), nil},
		{"twonames", "twonames", "", []string{node}},
		{"twonamesread", "twonamesread", "", []string{node}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := runDevice(t, plain, c.c, dev, c.input, c.args...)
			if want.File == "" || want.Status != 0 {
				t.Fatalf("the plain build: %+v", want)
			}
			got := runDevice(t, files, c.c, dev, c.input, c.args...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-files against the plain build (-plain +files):\n%s", diff)
			}
		})
	}
}

// TestFilesBlockDeviceCalls: on a block device the Fprintf loop makes
// one write(2) per buffer of the default policy's 4096 bytes (st_blksize
// of a loop device is 512 or 4096), the plain build one per line; and
// fmt.Fscan one read(2) per buffer, the plain build one per byte
// (strace).
func TestFilesBlockDeviceCalls(t *testing.T) {
	plain, files := filesPrograms(t)
	dev := loopDevice(t)
	writes := func(bin string) []int {
		setDevice(t, dev, "")
		return writesTo(straceLog(t, "openat,write", bin, "fprintf", dev, nil), dev)
	}
	p, f := writes(plain), writes(files)
	// 2000 lines of 19 to 22 bytes: about 40 KB, 10 buffers of 4 KiB,
	// each written out when the next line does not fit; the first line
	// is written plainly, before the file is decided at its second.
	full := func(n int) bool { return n > 4096-22 && n <= 4096 }
	if len(p) < 2000 || len(f) < 3 || len(f) > 20 || f[0] > 22 || !all(f[1:len(f)-1], full) {
		t.Errorf("write(2) calls: plain %d (want >= 2000), -files %d, the first of sizes %v (want <= 20: the first line, then each but the last a full buffer of 4096)", len(p), len(f), f[:min(len(f), 12)])
	}
	// The decision's fstat is the only one on the device: stream takes
	// it instead of making its own.
	setDevice(t, dev, "")
	if n := callsOn(straceLog(t, "openat,fstat,newfstatat", files, "fprintf", dev, nil), dev, "fstat|newfstatat"); n != 1 {
		t.Errorf("-files: %d fstat calls on the device, want 1", n)
	}
	reads := func(bin string) int {
		setDevice(t, dev, readInput())
		return len(regexp.MustCompile(`(?m)\bread\(`).FindAllString(straceLog(t, "read", bin, "fscan", dev, nil), -1))
	}
	// 21000 bytes of 3000 integers, in about six buffers of 4 KiB.
	if p, f := reads(plain), reads(files); p < 21000 || f > 20 {
		t.Errorf("read(2) calls: plain %d (want >= 21000), -files %d (want <= 20)", p, f)
	}
}

// writesTo returns the sizes of the write(2) calls in an strace log
// (trace=openat,write) to the descriptor that opened path.
func writesTo(log, path string) []int {
	var sizes []int
	fd := ""
	open := regexp.MustCompile(`\bopenat\([^,]*, "` + regexp.QuoteMeta(path) + `", .*\) = (\d+)`)
	write := regexp.MustCompile(`\bwrite\((\d+),.*, (\d+)(\) = | <unfinished)`)
	for _, l := range strings.Split(log, "\n") {
		if m := open.FindStringSubmatch(l); m != nil {
			fd = m[1]
		} else if m := write.FindStringSubmatch(l); m != nil && m[1] == fd {
			n, _ := strconv.Atoi(m[2])
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// callsOn counts the calls named by the regular expression names in an
// strace log (which traces openat) on the descriptor that opened path.
func callsOn(log, path, names string) int {
	n := 0
	fd := ""
	open := regexp.MustCompile(`\bopenat\([^,]*, "` + regexp.QuoteMeta(path) + `", .*\) = (\d+)`)
	call := regexp.MustCompile(`\b(?:` + names + `)\((\d+),`)
	for _, l := range strings.Split(log, "\n") {
		if m := open.FindStringSubmatch(l); m != nil {
			fd = m[1]
		} else if m := call.FindStringSubmatch(l); m != nil && m[1] == fd {
			n++
		}
	}
	return n
}

// all reports whether every element of s satisfies ok.
func all(s []int, ok func(int) bool) bool {
	for _, n := range s {
		if !ok(n) {
			return false
		}
	}
	return true
}
