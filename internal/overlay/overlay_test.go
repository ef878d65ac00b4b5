package overlay

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// toolchain returns the toolchain on PATH and its go command, or skips.
func toolchain(t *testing.T) (Toolchain, string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Skipf("no go command to generate for: %v", err)
	}
	f := strings.Fields(string(out))
	return Toolchain{GOROOT: f[0], GOVERSION: f[1], GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}, filepath.Join(f[0], "bin", "go")
}

// toyStream returns a source tree shaped like stream's made from the
// toolchain's own bufio: its files renamed package stream, with the names
// a stream must take from bufio (error values, SplitFunc,
// MaxScanTokenSize) moved to a bufioapi.go that imports bufio. Generating
// from it must give back a bufio that compiles and has bufio's API.
func toyStream(t *testing.T, goroot string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	var api []string
	for _, name := range []string{"bufio.go", "scan.go"} {
		b, err := os.ReadFile(filepath.Join(goroot, "src", "bufio", name))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, b, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		// Cut declarations from the end so earlier offsets stay valid.
		for i := len(f.Decls) - 1; i >= 0; i-- {
			gd, ok := f.Decls[i].(*ast.GenDecl)
			if !ok || gd.Tok == token.IMPORT {
				continue
			}
			var names []string
			for _, s := range gd.Specs {
				names = append(names, specNames(s)...)
			}
			if !takenFromBufio(names) {
				continue
			}
			for _, n := range names {
				switch gd.Tok {
				case token.VAR:
					api = append(api, "var "+n+" = bufio."+n)
				case token.CONST:
					api = append(api, "const "+n+" = bufio."+n)
				case token.TYPE:
					api = append(api, "type "+n+" = bufio."+n)
				}
			}
			start, end := fset.Position(docPos(gd.Doc, gd.Pos())).Offset, fset.Position(gd.End()).Offset
			src = src[:start] + src[end:]
		}
		src = strings.Replace(src, "package bufio", "package stream", 1)
		// The cut declarations may have been the only users of errors.
		if !usesPackage(t, src, "errors") {
			src = strings.Replace(src, "\t\"errors\"\n", "", 1)
		}
		fsys["stream/"+name] = &fstest.MapFile{Data: []byte(src)}
	}
	fsys["stream/"+apiFile] = &fstest.MapFile{Data: []byte("package stream\n\nimport \"bufio\"\n\n" + strings.Join(api, "\n") + "\n")}
	fsys["stream/toy_test.go"] = &fstest.MapFile{Data: []byte("package stream\n\nthis is not Go, and a test file is never read\n")}
	return fsys
}

// usesPackage reports whether Go source src refers to package pkg.
func usesPackage(t *testing.T, src, pkg string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	used := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == pkg {
				used = true
			}
		}
		return true
	})
	return used
}

func takenFromBufio(names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, "Err") || n == "SplitFunc" || n == "MaxScanTokenSize" {
			return true
		}
	}
	return false
}

func TestGenerateToy(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles bufio; -short skips it")
	}
	tc, goCmd := toolchain(t)
	cache := t.TempDir()
	ov, err := Generate(tc, toyStream(t, tc.GOROOT), cache, goCmd)
	if err != nil {
		t.Fatal(err)
	}
	if !ov.Generated {
		t.Error("first Generate did not generate")
	}
	var o overlayJSON
	b, err := os.ReadFile(ov.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	bufio := filepath.Join(tc.GOROOT, "src", "bufio")
	// stream's bufioapi.go, which bufio lacks, is merged into bufio.go.
	want := map[string]string{
		filepath.Join(bufio, "bufio.go"): filepath.Join(ov.Dir, "src", "bufio", "bufio.go"),
		filepath.Join(bufio, "scan.go"):  filepath.Join(ov.Dir, "src", "bufio", "scan.go"),
	}
	if diff := cmp.Diff(want, o.Replace); diff != "" {
		t.Errorf("overlay -want +got:\n%s", diff)
	}
	api, err := os.ReadFile(filepath.Join(ov.Dir, "src", "bufio", "bufio.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"package bufio", "\t\"errors\"\n", `ErrFinalToken = errors.New("final token")`, "type SplitFunc func(", "MaxScanTokenSize = 64 * 1024"} {
		if !strings.Contains(string(api), s) {
			t.Errorf("generated bufio.go lacks %q:\n%s", s, api)
		}
	}
	again, err := Generate(tc, toyStream(t, tc.GOROOT), cache, goCmd)
	if err != nil {
		t.Fatal(err)
	}
	if again.Generated || again.JSON != ov.JSON {
		t.Errorf("second Generate: generated %v at %s, want the cached %s", again.Generated, again.JSON, ov.JSON)
	}
	// The overlay's bufio passes a build and vet in bufio's directory.
	for _, verb := range []string{"build", "vet"} {
		if out, err := exec.Command(goCmd, verb, "-overlay="+ov.JSON, "bufio").CombinedOutput(); err != nil {
			t.Errorf("go %s -overlay bufio: %v\n%s", verb, err, out)
		}
	}
}

// TestGenerateConcurrent runs generators at once on one cache: all must
// succeed with the same overlay, exactly one generates it, and no
// temporary directory is left.
func TestGenerateConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles bufio; -short skips it")
	}
	tc, goCmd := toolchain(t)
	cache := t.TempDir()
	src := toyStream(t, tc.GOROOT)
	const n = 4
	var wg sync.WaitGroup
	results := make([]*Overlay, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { results[i], errs[i] = Generate(tc, src, cache, goCmd) })
	}
	wg.Wait()
	generated := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("generator %d: %v", i, errs[i])
		}
		if results[i].JSON != results[0].JSON {
			t.Errorf("generator %d: overlay %s, want %s", i, results[i].JSON, results[0].JSON)
		}
		if results[i].Generated {
			generated++
		}
	}
	if generated > 1 {
		t.Errorf("%d generators published, want at most one", generated)
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{filepath.Base(results[0].Dir)}, names); diff != "" {
		t.Errorf("cache holds -want +got:\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(results[0].Dir, checkFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("published overlay has %s: %v", checkFile, err)
	}
}

// fakeGOROOT copies the toolchain's bufio into a temporary GOROOT and
// appends extra to bufio.go.
func fakeGOROOT(t *testing.T, goroot, extra string) string {
	t.Helper()
	fake := t.TempDir()
	dir := filepath.Join(fake, "src", "bufio")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(goroot, "src", "bufio"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(goroot, "src", "bufio", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "bufio.go" {
			b = append(b, extra...)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return fake
}

func TestGenerateRefusesAPIMismatch(t *testing.T) {
	tc, _ := toolchain(t)
	tests := []struct {
		name  string
		extra string // appended to the fake GOROOT's bufio.go
		want  string // in the error
	}{
		{"new func", "\nfunc NewThing(n int) *Reader { return nil }\n", "NewThing (func(int) (*Reader)), which stream lacks"},
		{"new method", "\nfunc (b *Reader) Peek2() {}\n", "(*Reader).Peek2 (func()), which stream lacks"},
		{"new var", "\nvar ErrNew = errors.New(\"new\")\n", "ErrNew (var), which stream lacks"},
		{"new field", "\ntype Pair struct{ A int }\n", "Pair (type struct), which stream lacks; Pair.A (field int), which stream lacks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := Toolchain{GOROOT: fakeGOROOT(t, tc.GOROOT, tt.extra), GOVERSION: "go1.99"}
			cache := t.TempDir()
			_, err := Generate(fake, toyStream(t, tc.GOROOT), cache, "/nonexistent/go")
			if !errors.Is(err, ErrAPI) {
				t.Fatalf("Generate: %v, want ErrAPI", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || !strings.Contains(msg, "go1.99") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming go1.99 and %q", msg, tt.want)
			}
			if entries, _ := os.ReadDir(cache); len(entries) != 0 {
				t.Errorf("cache holds %d entries after a refused generation", len(entries))
			}
		})
	}
}

func TestGenerateChangedSignature(t *testing.T) {
	tc, _ := toolchain(t)
	src := toyStream(t, tc.GOROOT)
	scan := src["stream/scan.go"]
	changed := strings.Replace(string(scan.Data), "func (s *Scanner) Buffer(buf []byte, max int)", "func (s *Scanner) Buffer(buf []byte, max int64)", 1)
	if changed == string(scan.Data) {
		t.Fatal("toy scan.go has no Scanner.Buffer to change")
	}
	src["stream/scan.go"] = &fstest.MapFile{Data: []byte(changed)}
	_, err := Generate(tc, src, t.TempDir(), "/nonexistent/go")
	want := "(*Scanner).Buffer as func([]byte, int), where stream has func([]byte, int64)"
	if !errors.Is(err, ErrAPI) || !strings.Contains(err.Error(), want) {
		t.Errorf("Generate: %v, want ErrAPI with %q", err, want)
	}
}

func TestGenerateBadSource(t *testing.T) {
	tc, _ := toolchain(t)
	tests := []struct {
		name string
		add  fstest.MapFS
		want string
	}{
		{"seam without twin", fstest.MapFS{"stream/sys_linux.go": {Data: []byte("package stream\n\nimport _ \"golang.org/x/sys/unix\"\n")}},
			"stream/sys_linux.go imports golang.org/x/sys/unix and has no std twin in internal/stdseam"},
		{"twin without std tag", fstest.MapFS{
			"stream/sys_linux.go":           {Data: []byte("package stream\n\nimport _ \"golang.org/x/sys/unix\"\n")},
			"internal/stdseam/sys_linux.go": {Data: []byte("//go:build linux\n\npackage bufio\n")}},
			"stream/sys_linux.go imports golang.org/x/sys/unix and has no std twin in internal/stdseam"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := toyStream(t, tc.GOROOT)
			for k, v := range tt.add {
				src[k] = v
			}
			_, err := Generate(tc, src, t.TempDir(), "/nonexistent/go")
			if !errors.Is(err, ErrSource) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate: %v, want ErrSource with %q", err, tt.want)
			}
		})
	}
}

// TestTransformTwins checks that a seam file is swapped for its twin,
// with the std tag dropped from the twin's constraint, and a twin whose
// constraint is the tag alone has none.
func TestTransformTwins(t *testing.T) {
	tc, _ := toolchain(t)
	std, err := parseDir(bufioDir(tc.GOROOT))
	if err != nil {
		t.Fatal(err)
	}
	src := toyStream(t, tc.GOROOT)
	src["stream/sys_unix.go"] = &fstest.MapFile{Data: []byte("//go:build unix\n\npackage stream\n\nimport \"golang.org/x/sys/unix\"\n\nvar _ = unix.Stat\n")}
	src["internal/stdseam/sys_unix.go"] = &fstest.MapFile{Data: []byte("//go:build stdiobuf_std && unix\n\npackage bufio\n\nimport \"syscall\"\n\nvar _ = syscall.Stat\n")}
	src["stream/atexit.go"] = &fstest.MapFile{Data: []byte("package stream\n\nfunc atExit(f func()) {}\n")}
	src["internal/stdseam/atexit.go"] = &fstest.MapFile{Data: []byte("//go:build stdiobuf_std\n\npackage bufio\n\nimport \"internal/runtime/exithook\"\n\nfunc atExit(f func()) { exithook.Add(exithook.Hook{F: f}) }\n")}
	files, err := sourceFiles(src)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := transform(files, std)
	if err != nil {
		t.Fatal(err)
	}
	want := header("internal/stdseam/sys_unix.go") + "//go:build unix\n\npackage bufio\n\nimport \"syscall\"\n\nvar _ = syscall.Stat\n"
	if diff := cmp.Diff(want, string(gen["sys_unix.go"])); diff != "" {
		t.Errorf("sys_unix.go -want +got:\n%s", diff)
	}
	want = header("internal/stdseam/atexit.go") + "\npackage bufio\n\nimport \"internal/runtime/exithook\"\n\nfunc atExit(f func()) { exithook.Add(exithook.Hook{F: f}) }\n"
	if diff := cmp.Diff(want, string(gen["atexit.go"])); diff != "" {
		t.Errorf("atexit.go -want +got:\n%s", diff)
	}
	if _, ok := gen["toy_test.go"]; ok {
		t.Error("a test file was generated")
	}
}

func TestGenerateUnwritableCache(t *testing.T) {
	tc, _ := toolchain(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A regular file where a directory must be: unwritable even for root.
	_, err := Generate(tc, toyStream(t, tc.GOROOT), filepath.Join(file, "stdiobuf"), "/nonexistent/go")
	if !errors.Is(err, ErrCache) || strings.Contains(err.Error(), "\n") {
		t.Errorf("Generate: %v, want one line with ErrCache", err)
	}
}

func TestGenerateCompileFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles bufio; -short skips it")
	}
	tc, goCmd := toolchain(t)
	src := toyStream(t, tc.GOROOT)
	src["stream/broken.go"] = &fstest.MapFile{Data: []byte("package stream\n\nvar _ int = \"not an int\"\n")}
	cache := t.TempDir()
	_, err := Generate(tc, src, cache, goCmd)
	if !errors.Is(err, ErrCompile) || !strings.Contains(err.Error(), "broken.go") {
		t.Errorf("Generate: %v, want ErrCompile naming broken.go", err)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("cache holds %d entries after a failed compile, want none", len(entries))
	}
}

func TestLinkGOROOT(t *testing.T) {
	cache := t.TempDir()
	root := t.TempDir()
	tc := Toolchain{GOROOT: root, GOVERSION: "go1.25.5"}
	link, err := LinkGOROOT(tc, cache)
	if err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(link); err != nil || target != root {
		t.Errorf("link %s points to %q (%v), want %s", link, target, err, root)
	}
	again, err := LinkGOROOT(tc, cache)
	if err != nil || again != link {
		t.Errorf("second LinkGOROOT: %s, %v; want %s", again, err, link)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want the link alone", len(entries))
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"go1.26.8": "go1.26.8",
		"devel go1.27-abcdef Mon Nov 30 12:00:00 2026 +0000": "devel_go1.27-abcdef_Mon_Nov_30_12_00_00_2026__0000",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAsBufio(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"package clause and comment",
			"// Package stream is a drop-in for bufio.\npackage stream\n\nvar x = 1\n",
			"\npackage bufio\n\nvar x = 1\n"},
		{"messages",
			"package stream\n\nimport \"errors\"\n\nvar (\n\tA = errors.New(\"stream: a\")\n\tB = errors.New(`stream.Scan: b`)\n\tC = \"streams: c\"\n\tD = \"a stream: d\"\n\tE = \"\\x73tream: e\"\n)\n\nfunc f() { panic(\"stream.Scan: too many\") }\n",
			"package bufio\n\nimport \"errors\"\n\nvar (\n\tA = errors.New(\"bufio: a\")\n\tB = errors.New(`bufio.Scan: b`)\n\tC = \"streams: c\"\n\tD = \"a stream: d\"\n\tE = \"\\x73tream: e\"\n)\n\nfunc f() { panic(\"bufio.Scan: too many\") }\n"},
		{"comments",
			"package stream\n\n// A is \"stream: a\", as stream.Reader says; an input stream: no.\nvar A = 1\n",
			"package bufio\n\n// A is \"bufio: a\", as bufio.Reader says; an input stream: no.\nvar A = 1\n"},
	}
	for _, tt := range tests {
		got, err := asBufio("stream/x.go", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%s: -want +got:\n%s", tt.name, diff)
		}
	}
}

func TestSetBuiltinPolicy(t *testing.T) {
	const decl = "package bufio\n\n// builtinPolicy is the default.\nconst builtinPolicy = \"\"\n"
	tests := []struct {
		name    string
		gen     map[string]string
		want    map[string]string
		wantErr string
	}{
		{"set", map[string]string{"a.go": "package bufio\n", "policy.go": decl},
			map[string]string{"a.go": "package bufio\n", "policy.go": strings.Replace(decl, `""`, `"readahead:65536"`, 1)}, ""},
		{"none", map[string]string{"a.go": "package bufio\n"}, nil, "0 constants builtinPolicy in stream, want one"},
		{"two", map[string]string{"a.go": decl, "b.go": decl}, nil, "2 constants builtinPolicy in stream, want one"},
		{"not a literal", map[string]string{"a.go": "package bufio\n\nconst builtinPolicy = name\n"}, nil, "a.go's builtinPolicy is not a string literal"},
	}
	for _, tt := range tests {
		gen := make(map[string][]byte)
		for k, v := range tt.gen {
			gen[k] = []byte(v)
		}
		err := setBuiltinPolicy(gen, "readahead:65536")
		if tt.wantErr != "" {
			if !errors.Is(err, ErrSource) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want ErrSource with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		got := make(map[string]string)
		for k, v := range gen {
			got[k] = string(v)
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
		} else if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: -want +got:\n%s", tt.name, diff)
		}
	}
}
