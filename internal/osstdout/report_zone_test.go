//go:build linux

package osstdout_test

import (
	"archive/zip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The zone tests build testdata/zone with -stdout and -files and check
// that the reads package time makes of the zone files, with package
// syscall and not through an *os.File, have report lines that agree with
// strace.

var zoneBuild programSet

// zoneWhy is the reason on a zone file's line.
const zoneWhy = "package time's zone files: read plainly"

// zoneFiles makes, in dir, a zoneinfo directory with the zones named,
// taken from the toolchain's lib/time/zoneinfo.zip, and returns the
// directory and the zip's path.
func zoneFiles(t *testing.T, dir string, zones ...string) (zoneDir, zipPath string) {
	t.Helper()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	zipPath = filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip")
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Skipf("no zoneinfo.zip in the toolchain: %v", err)
	}
	defer zr.Close()
	zoneDir = filepath.Join(dir, "zoneinfo")
	for _, name := range zones {
		r, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(zoneDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return zoneDir, zipPath
}

// TestReportZoneReads: a zone file package time reads (the local zone
// from TZ, LoadLocation's from a ZONEINFO directory or zip) has a line
// with buffer=none and the zone files' reason, one per descriptor and
// file however often it is opened there, whose reads and bytes are
// strace's on that descriptor and file; the total counts them; a program that reads no
// zone has no such line.
func TestReportZoneReads(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed: the zone files' reads are not compared with strace's")
	}
	bins := zoneBuild.build(t, "zone", "-stdout", "-files")
	zoneDir, zipPath := zoneFiles(t, t.TempDir(), "Europe/Paris", "America/New_York")
	paris, newYork := filepath.Join(zoneDir, "Europe", "Paris"), filepath.Join(zoneDir, "America", "New_York")
	for _, build := range []string{"-stdout", "-files"} {
		for _, c := range []struct {
			name  string
			env   []string
			args  []string
			paths []string // the zone files' lines, in order
		}{
			{"local from TZ", []string{"TZ=" + paris}, []string{"local"}, []string{paris}},
			{"LoadLocation from a directory", []string{"ZONEINFO=" + zoneDir}, []string{"load", "Europe/Paris", "America/New_York"}, []string{paris, newYork}},
			{"LoadLocation from a zip, twice", []string{"ZONEINFO=" + zipPath}, []string{"load", "Europe/Paris", "Europe/Paris"}, []string{zipPath}},
			{"no zone", []string{"TZ=" + paris}, []string{"none"}, nil},
		} {
			t.Run(build+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				trace, report := filepath.Join(dir, "trace"), filepath.Join(dir, "report")
				args := append([]string{"-f", "-qq", "-y", "-o", trace, "-e", "trace=" + tracedCalls, bins[build]}, c.args...)
				cmd := exec.Command(strace, args...)
				cmd.Env = append(envWithout(envWithout(envWithout(os.Environ(), "STDIOBUF_REPORT"), "TZ"), "ZONEINFO"), c.env...)
				cmd.Env = append(cmd.Env, "STDIOBUF_REPORT="+report)
				if out, err := cmd.CombinedOutput(); err != nil {
					if strings.Contains(string(out), "ptrace") || strings.Contains(string(out), "PTRACE") {
						t.Skip("strace cannot trace here: " + string(out))
					}
					t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
				}
				text, err := os.ReadFile(report)
				if err != nil {
					t.Fatal(err)
				}
				streams, total := parseReport(t, string(text))
				checkTotal(t, streams, total)
				seen := straceCalls(t, trace)

				// Every zone file strace saw read has its line, and
				// only those have the zone files' reason.
				var want, got []reportLine
				for _, p := range c.paths {
					want = append(want, reportLine{"path": p, "buffer": "none", "kind": "file", "dir": "read", "mode": "none", "reason": zoneWhy})
				}
				for _, l := range streams {
					if l["reason"] != zoneWhy && !strings.HasPrefix(l["path"], zoneDir) && l["path"] != zipPath {
						continue
					}
					// A file opened again has a line per descriptor
					// time got: compared here once.
					p := l.pick("path", "buffer", "kind", "dir", "mode", "reason")
					if len(got) == 0 || !cmp.Equal(got[len(got)-1], p) {
						got = append(got, p)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("zone files' lines (-want +got):\n%s\n%s", diff, text)
				}

				// Each line's reads and bytes are strace's on its
				// descriptor and file, and so are strace's reads of
				// the zone files that no line has.
				traced, reported := map[string]map[string]int{}, map[string]map[string]int{}
				for key, calls := range seen {
					path := key[strings.Index(key, "<")+1 : len(key)-1]
					if calls["read"] > 0 && (strings.HasPrefix(path, zoneDir) || path == zipPath) {
						traced[key] = map[string]int{"reads": calls["read"], "bytes": calls["read bytes"]}
					}
				}
				for _, l := range streams {
					if l["reason"] != zoneWhy {
						continue
					}
					key := l["fd"] + "<" + l["path"] + ">"
					if reported[key] == nil {
						reported[key] = map[string]int{}
					}
					reported[key]["reads"] += l.num(t, "reads")
					reported[key]["bytes"] += l.num(t, "bytes")
				}
				if diff := cmp.Diff(traced, reported); diff != "" {
					t.Errorf("zone files' reads: strace and the report disagree (-strace +report):\n%s\n%s", diff, text)
				}

				// The total's reads are strace's on the lines'
				// descriptors.
				keys := map[string]bool{}
				for _, l := range streams {
					keys[l["fd"]+"<"+l["path"]+">"] = true
				}
				reads := 0
				for key := range keys {
					reads += seen[key]["read"]
				}
				if diff := cmp.Diff(reads, total.num(t, "reads")); diff != "" {
					t.Errorf("total reads (-strace +report):\n%s\n%s", diff, text)
				}
			})
		}
	}
}
