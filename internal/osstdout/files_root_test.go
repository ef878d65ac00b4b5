//go:build linux

package osstdout_test

import (
	"bufio"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestFilesRoot: a line written through a file that os.Root created is
// seen whole, size and contents, by the Root's Stat, Lstat, ReadFile and
// Open, its FS's Stat and ReadFile, os.DirFS's and OpenInRoot, as in the
// plain build; and the modification time Root.Chtimes sets is the file's
// after the run (no write of the line before it comes after it).
func TestFilesRoot(t *testing.T) {
	plain, files := filesPrograms(t)
	type rootRun struct {
		Ran   ran
		MTime time.Time
	}
	run := func(bin string) rootRun {
		r, path := runFileAt(t, bin, "root", nil)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return rootRun{r, fi.ModTime().UTC()}
	}
	want := run(plain)
	if want.Ran.Status != 0 || want.MTime.Year() != 2001 {
		t.Fatalf("the plain build: %+v", want)
	}
	if diff := cmp.Diff(want, run(files)); diff != "" {
		t.Errorf("-files against the plain build (-plain +files):\n%s", diff)
	}
}

// TestFilesRootMove: a file written through an os.Root and moved to its
// name by Root.Rename, or given it by Root.Link, is whole when the name
// appears, while the program sleeps saying nothing (no bound), as in
// the plain build: the write-then-rename idiom.
func TestFilesRootMove(t *testing.T) {
	plain, files := filesPrograms(t)
	for _, how := range []string{"rename", "link"} {
		t.Run(how, func(t *testing.T) {
			seen := func(bin string) string {
				cmd, path := fileCmd(t, bin, "rootmove", nil, how)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer cmd.Wait()
				defer cmd.Process.Kill()
				for start := time.Now(); ; time.Sleep(time.Millisecond) {
					if f, err := os.Open(path); err == nil {
						defer f.Close()
						line, _ := bufio.NewReader(f).ReadString('\n')
						return line
					}
					if time.Since(start) > 10*time.Second {
						t.Fatalf("%s: no %s after %v", bin, path, time.Since(start))
					}
				}
			}
			want := seen(plain)
			if want != "the line written before "+how+"\n" {
				t.Fatalf("the plain build's file held %q", want)
			}
			if got := seen(files); got != want {
				t.Errorf("-files: the file held %q when it appeared, plainly %q", got, want)
			}
		})
	}
}
