package overlay

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testPlatforms are the targets the layout tests know, as go tool dist
// list would say.
var testPlatforms = platforms{
	oses:   map[string]bool{"linux": true, "android": true, "windows": true, "darwin": true, "ios": true, "plan9": true},
	arches: map[string]bool{"amd64": true, "arm64": true, "386": true},
}

var linuxAMD64 = Toolchain{GOROOT: "/goroot", GOVERSION: "go1.99", GOOS: "linux", GOARCH: "amd64"}

func TestMerge(t *testing.T) {
	tests := []struct {
		name    string
		files   []goFile
		want    string // the merged file, for a success
		wantErr string // in the error, for a failure
	}{
		{
			name: "imports joined, bodies in order",
			files: []goFile{
				{name: "p/a.go", src: []byte("//go:build linux\n\npackage p\n\nimport (\n\t\"io\"\n\tu \"internal/syscall/unix\"\n)\n\nvar A = io.EOF\n")},
				{name: "p/b.go", src: []byte("package p\n\nimport \"io\"\nimport _ \"unsafe\"\nimport \"math/rand/v2\"\n\nfunc B() { _ = rand.N(1); _ = u.X }\n"), from: "stream/b.go"},
				{name: "p/c.go", src: []byte("// Package p has a doc that is dropped.\npackage p\nvar C = 1")},
			},
			want: "package p\n\nimport (\n\tu \"internal/syscall/unix\"\n\t\"io\"\n\t\"math/rand/v2\"\n\t_ \"unsafe\"\n)\n" +
				"\n// From p/a.go.\n\nvar A = io.EOF\n" +
				"\n// From stream/b.go.\n\nfunc B() { _ = rand.N(1); _ = u.X }\n" +
				"\n// From p/c.go.\n\nvar C = 1\n",
		},
		{
			name: "blank import of a path imported by name",
			files: []goFile{
				{name: "p/a.go", src: []byte("package p\n\nimport _ \"unsafe\"\n")},
				{name: "p/b.go", src: []byte("package p\n\nimport \"unsafe\"\n\nvar _ unsafe.Pointer\n")},
			},
			want: "package p\n\nimport (\n\t\"unsafe\"\n)\n\n// From p/a.go.\n\n\n// From p/b.go.\n\nvar _ unsafe.Pointer\n",
		},
		{
			name: "one name for two packages",
			files: []goFile{
				{name: "p/a.go", src: []byte("package p\n\nimport \"internal/syscall/unix\"\n")},
				{name: "p/b.go", src: []byte("package p\n\nimport unix \"golang.org/x/sys/unix\"\n")},
			},
			wantErr: `p/a.go imports "internal/syscall/unix" and p/b.go imports unix "golang.org/x/sys/unix", one name for two packages`,
		},
		{
			name:    "dot import",
			files:   []goFile{{name: "p/a.go", src: []byte("package p\n\nimport . \"io\"\n")}},
			wantErr: `p/a.go imports . "io", which cannot be merged`,
		},
		{
			name:    "cgo",
			files:   []goFile{{name: "p/a.go", src: []byte("package p\n\nimport \"C\"\n")}},
			wantErr: `p/a.go imports "C", which cannot be merged`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := merge("package p", tt.files)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrSource) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("merge: %v, want ErrSource with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("merged -want +got:\n%s", diff)
			}
		})
	}
}

// TestMergePositions: a line of a merged file maps back to its file.
func TestMergePositions(t *testing.T) {
	files := []goFile{
		{name: "p/a.go", src: []byte("package p\n\nimport \"io\"\n\nvar A = io.EOF\n\nvar A2 = 2\n")},
		{name: "p/b.go", src: []byte("// comment\n\npackage p\n\n\nvar B = 1\n"), from: "stream/b.go"},
	}
	got, spans, err := merge("package p", files)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(got), "\n")
	want := map[string]string{"var A = io.EOF": "p/a.go:5", "var A2 = 2": "p/a.go:7", "var B = 1": "stream/b.go:6"}
	for i, l := range lines {
		if w, ok := want[l]; ok {
			if pos := position(spans, i+1); pos != w {
				t.Errorf("line %d %q: from %s, want %s", i+1, l, pos, w)
			}
			delete(want, l)
		}
	}
	if len(want) > 0 {
		t.Errorf("lines not in the merged file: %v\n%s", want, got)
	}
	if pos := position(spans, 1); pos != "" {
		t.Errorf("the package clause maps to %q, want nothing", pos)
	}
}

// files is a package's files by base name, as text.
type files map[string]string

func (f files) bytes() map[string][]byte {
	m := make(map[string][]byte)
	for k, v := range f {
		m[k] = []byte(v)
	}
	return m
}

func TestLayout(t *testing.T) {
	tests := []struct {
		name  string
		path  string // the package's import path; p if empty
		patch bool
		std   files
		gen   files
		// want maps each laid-out file to strings it must hold, in order;
		// a name not in want must not be laid out.
		want    map[string][]string
		wantErr string
	}{
		{
			name: "whole package: added files merged into the free file, for the target",
			path: "bufio",
			std:  files{"bufio.go": "// Package bufio is bufio.\npackage bufio\n", "scan.go": "package bufio\n", "bufio_test.go": "package bufio\n", "export_test.go": "package bufio\n", "extra.go": "package bufio\n"},
			gen: files{
				"scan.go":           header("stream/scan.go") + "package bufio\n\nimport \"io\"\n\nvar S io.Reader\n",
				"reader.go":         header("stream/reader.go") + "// Package stream is not bufio.\npackage bufio\n\nvar R = 1\n",
				"sys_linux.go":      header("internal/stdseam/sys_linux.go") + "//go:build linux\n\npackage bufio\n\nimport \"internal/syscall/unix\"\n\nvar L = unix.X\n",
				"sys_windows.go":    "package bufio\n\nvar W = 1\n",
				"sys_other.go":      "//go:build !linux && !windows\n\npackage bufio\n\nvar O = 1\n",
				"export_test.go":    "package bufio\n",
				"zerocopy_arm64.go": "package bufio\n\nvar Z = 1\n",
			},
			want: map[string][]string{
				"bufio.go": {"// Code generated by stdiobuf from the files named below, for linux/amd64; DO NOT EDIT.",
					"//go:build linux && amd64 && !android\n\n// Package bufio is bufio.\npackage bufio\n",
					"\"internal/syscall/unix\"", "// From stream/reader.go.\n\nvar R = 1", "// From internal/stdseam/sys_linux.go.\n\nvar L = unix.X",
					"const " + marker(linuxAMD64) + " = true"},
				"scan.go":        {"import \"io\"\n\n// This overlay's bufio is made for linux/amd64", "var _ = " + marker(linuxAMD64) + "\n", "var S io.Reader"},
				"export_test.go": {"package bufio"},
			},
		},
		{
			name: "whole package: no free file, the first one holds the rest",
			std:  files{"a.go": "package p\n", "b.go": "package p\n"},
			gen:  files{"a.go": "package p\n\nvar A = 1\n", "b.go": "package p\n\nvar B = 1\n", "c.go": "package p\n\nvar C = 1\n"},
			want: map[string][]string{
				"a.go": {"//go:build linux", "// From p/a.go.\n\nvar A = 1", "// From p/c.go.\n\nvar C = 1"},
				"b.go": {"var _ = " + marker(linuxAMD64), "var B = 1"},
			},
		},
		{
			name:    "whole package: a tag the overlay cannot carry",
			std:     files{"a.go": "package p\n"},
			gen:     files{"x.go": "//go:build linux && cgo\n\npackage p\n"},
			wantErr: "p/x.go is built by tag cgo, which is not a GOOS, a GOARCH or unix",
		},
		{
			name:    "whole package: init functions would run in another order",
			std:     files{"m.go": "package p\n", "z.go": "package p\n"},
			gen:     files{"z.go": "package p\n\nfunc init() {}\n", "zz.go": "package p\n\nfunc init() {}\n", "a.go": "package p\n"},
			wantErr: "merging a.go, zz.go into p's m.go would run init functions in another order (zz.go, z.go, not z.go, zz.go)",
		},
		{
			name:  "patch: added files appended to the last file that builds everywhere",
			path:  "os",
			patch: true,
			std: files{"file.go": "package os\n\nimport \"io\"\n\nvar F io.Reader\n", "types.go": "// Copyright.\n\npackage os\n\nimport \"time\"\n\nvar T time.Time\n",
				"types_unix.go": "//go:build unix\n\npackage os\n", "zero_linux.go": "package os\n", "file_test.go": "package os\n"},
			gen: files{
				"file.go":              "package os\n\nvar Renamed = 1\n",
				"zz_stdiobuf_a.go":     header("internal/osstdout/std/zz_stdiobuf_a.go") + "package os\n\nimport (\n\t\"bufio\"\n\t\"time\"\n)\n\nvar A *bufio.Writer\nvar _ time.Time\n",
				"zz_stdiobuf_plan9.go": "package os\n\nvar P = 1\n",
				"zz_stdiobuf_b.go":     "//go:build linux\n\npackage os\n\nfunc init() {}\n",
			},
			want: map[string][]string{
				"file.go":  {"var Renamed = 1"},
				"types.go": {"// Copyright.\n\npackage os\n\nimport (\n\t\"bufio\"\n\t\"time\"\n)\n\n// From os/types.go.\n\nvar T time.Time\n", "// From internal/osstdout/std/zz_stdiobuf_a.go.\n\nvar A *bufio.Writer", "// From os/zz_stdiobuf_b.go.\n\nfunc init() {}"},
			},
		},
		{
			name:    "patch: an added test file",
			patch:   true,
			std:     files{"file.go": "package os\n"},
			gen:     files{"zz_x_test.go": "package os\n"},
			wantErr: "p's test file zz_x_test.go has no file of that name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &pkgOverlay{path: tt.path, std: tt.std.bytes(), gen: tt.gen.bytes(), patch: tt.patch}
			if p.path == "" {
				p.path = "p"
			}
			err := p.layout(linuxAMD64, testPlatforms)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrSource) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("layout: %v, want ErrSource with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sortedKeys(tt.want), sortedKeys(p.gen)); diff != "" {
				t.Errorf("laid-out files -want +got:\n%s", diff)
			}
			for name, parts := range tt.want {
				text := string(p.gen[name])
				at := 0
				for _, part := range parts {
					i := strings.Index(text[at:], part)
					if i < 0 {
						t.Errorf("%s lacks %q after offset %d:\n%s", name, part, at, text)
						break
					}
					at += i + len(part)
				}
			}
			for _, name := range sortedKeys(p.gen) {
				if strings.Contains(string(p.gen[name]), "Package stream") {
					t.Errorf("%s keeps stream's package comment", name)
				}
			}
		})
	}
}

func TestTargetConstraint(t *testing.T) {
	tests := []struct {
		goos, goarch, want string
	}{
		{"linux", "amd64", "linux && amd64 && !android"},
		{"android", "arm64", "android && arm64"},
		{"darwin", "arm64", "darwin && arm64 && !ios"},
		{"windows", "386", "windows && 386"},
	}
	for _, tt := range tests {
		if got := targetConstraint(Toolchain{GOOS: tt.goos, GOARCH: tt.goarch}, testPlatforms); got != tt.want {
			t.Errorf("targetConstraint(%s/%s) = %q, want %q", tt.goos, tt.goarch, got, tt.want)
		}
	}
}
