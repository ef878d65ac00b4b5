//go:build linux

package osstdout_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// descStdout is testdata/files built with -stdout alone, for the cases
// whose hole -stdout had too.
var descStdout struct {
	once sync.Once
	bin  string
	err  error
}

// filesStdoutProgram returns testdata/files built with -stdout.
func filesStdoutProgram(t *testing.T) string {
	t.Helper()
	filesPrograms(t)
	descStdout.once.Do(func() {
		descStdout.bin = filepath.Join(filesBuild.dir, "files-stdout")
		descStdout.err = filesBuild.buildWith("-stdout", descStdout.bin, "./testdata/files")
	})
	if descStdout.err != nil {
		t.Fatal(descStdout.err)
	}
	return descStdout.bin
}

// TestFilesDescriptors: what a program does to a descriptor behind its
// *File (testdata/files/descriptors_linux.go) meets the files as
// plainly, under -files and -stdout: a lock (flock, fcntl, through
// package syscall and golang.org/x/sys/unix, of the data file or of a
// lock file, through a descriptor kept from one Fd) that another
// process takes next finds every record written under it; a MAP_SHARED
// map of a written file through a second *File shows each record once
// written, before the map and after; syscall.Dup2 of a log file onto
// standard output and standard error, before or after standard output's
// first write, keeps the order of lines written through fmt.Println,
// the log's *File and package log.
func TestFilesDescriptors(t *testing.T) {
	plain, files := filesPrograms(t)
	stdout := filesStdoutProgram(t)
	var cases [][]string
	for _, kind := range []string{"flock", "fcntl", "unixflock", "unixfcntl"} {
		for _, on := range []string{"data", "lockfile"} {
			cases = append(cases, []string{"locked", kind, on})
		}
	}
	cases = append(cases, []string{"mapped", "syscall"}, []string{"mapped", "unix"},
		[]string{"dupdaemon", "none"}, []string{"dupdaemon", "before"})
	for _, c := range cases {
		t.Run(strings.Join(c, "-"), func(t *testing.T) {
			want := runFile(t, plain, c[0], c[1:]...)
			for _, b := range []struct{ way, bin string }{{"-files", files}, {"-stdout", stdout}} {
				if diff := cmp.Diff(want, runFile(t, b.bin, c[0], c[1:]...)); diff != "" {
					t.Errorf("%s against the plain build (-plain +%s):\n%s", b.way, b.way, diff)
				}
			}
		})
	}
}

// TestFilesDescriptorsRace: the lock and Dup2 cases under -files -race.
func TestFilesDescriptorsRace(t *testing.T) {
	plain, _ := filesPrograms(t)
	race := filesRace(t)
	for _, c := range [][]string{{"locked", "fcntl", "lockfile"}, {"dupdaemon", "before"}} {
		t.Run(strings.Join(c, "-"), func(t *testing.T) {
			want, got := runFile(t, plain, c[0], c[1:]...), runFile(t, race, c[0], c[1:]...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-files -race against the plain build (-plain +race):\n%s", diff)
			}
		})
	}
}
