package osstdout

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goroot is the GOROOT of the go command on PATH, the toolchain the
// overlay would be made for.
func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// templatesOf reads the templates in dir.
func templatesOf(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := make(map[string][]byte)
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no templates in %s: %v", dir, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(n)] = b
	}
	return m
}

// callsIn returns, for each function declared in src, the names of the
// functions its body calls in statements of their own, in order.
func callsIn(t *testing.T, name string, src []byte) map[string][]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	calls := make(map[string][]string)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if es, ok := n.(*ast.ExprStmt); ok {
				if c, ok := es.X.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok {
						calls[fd.Name.Name] = append(calls[fd.Name.Name], id.Name)
					}
				}
			}
			return true
		})
	}
	return calls
}

// TestPatchFilesHooksRuntime: on the toolchain that runs the test, every
// runtime hook is inserted where it belongs, the template for
// signal_unix.go is merged into that file and the other is added.
func TestPatchFilesHooksRuntime(t *testing.T) {
	files, err := PatchFiles(goroot(t), runtime.Version(), "runtime", templatesOf(t, "runtime"))
	if err != nil {
		t.Fatal(err)
	}
	all := make(map[string][]string)
	for name, b := range files {
		if strings.Contains(string(b), buildTag) {
			t.Errorf("%s keeps the templates' build tag", name)
		}
		for fn, calls := range callsIn(t, name, b) {
			all[fn] = append(all[fn], calls...)
		}
	}
	// The hook's call, and the call it must come before.
	want := map[string][2]string{
		"gopanic":      {"stdioPanicking", "fatalpanic"},
		"Goexit":       {"stdioGoexit", "goexit1"},
		"printlock":    {"stdioBeforePrint", ""},
		"fatal":        {"stdioFatal", ""},
		"syscall_Exit": {"stdioExit", ""},
	}
	for fn, w := range want {
		calls := all[fn]
		if len(calls) == 0 || calls[0] != w[0] && w[1] == "" {
			t.Errorf("%s does not call %s first: %v", fn, w[0], calls)
			continue
		}
		if w[1] != "" && !follows(calls, w[0], w[1]) {
			t.Errorf("%s does not call %s right before %s: %v", fn, w[0], w[1], calls)
		}
	}
	sig := string(files["signal_unix.go"])
	for _, s := range []string{
		"if stdioSignalDeath(sig) {\n\t\t\treturn\n\t\t}\n\t\tdieFromSignal(sig)",
		"if stdioSignalAbort(sig, &sigctxt{info, ctxt}) {\n\t\t\treturn\n\t\t}\n\t\tstartpanic_m()",
		"func stdioSignalWatch()", "//go:build unix",
	} {
		if !strings.Contains(sig, s) {
			t.Errorf("the patched signal_unix.go lacks %q", s)
		}
	}
	if _, ok := files["zz_stdiobuf_hooks.go"]; !ok {
		t.Error("zz_stdiobuf_hooks.go is not added")
	}
}

// follows reports whether calls holds a right before b.
func follows(calls []string, a, b string) bool {
	for i := 1; i < len(calls); i++ {
		if calls[i] == b && calls[i-1] == a {
			return true
		}
	}
	return false
}

// TestPatchFilesHooksSyscall: every declaration of the hooked syscall
// functions, on every platform, starts with its flush, conditional on the
// descriptor where the function takes one; Exec's is followed by the
// deferred call that ends its window.
func TestPatchFilesHooksSyscall(t *testing.T) {
	files, err := PatchFiles(goroot(t), runtime.Version(), "syscall", templatesOf(t, "syscall"))
	if err != nil {
		t.Fatal(err)
	}
	count := make(map[string]int)
	eachFunc(t, files, func(name string, b []byte, fset *token.FileSet, fd *ast.FuncDecl) {
		var first, second string
		if len(fd.Body.List) > 1 {
			first, second = nodeText(fset, b, fd.Body.List[0]), nodeText(fset, b, fd.Body.List[1])
		}
		switch fd.Name.Name {
		case "Dup2", "Dup3":
			count[fd.Name.Name]++
			if newfd := paramName(fd, 1); first != "if "+newfd+" == 1 {\n\t\truntime_stdioFlush()\n\t}" {
				t.Errorf("%s's %s starts with %q", name, fd.Name.Name, first)
			}
		case "Close":
			count["Close"]++
			if fd := paramName(fd, 0); first != "if "+fd+" == 1 {\n\t\truntime_stdioTryFlush()\n\t}" {
				t.Errorf("%s's Close starts with %q", name, first)
			}
		case "ForkExec", "StartProcess", "Kill":
			count[fd.Name.Name]++
			if want := "runtime_stdioFlush()"; first != want {
				t.Errorf("%s's %s starts with %q, want %q", name, fd.Name.Name, first, want)
			}
		case "Exec":
			count["Exec"]++
			want := []string{"runtime_stdioBeforeExec()", "defer runtime_stdioAfterExec()"}
			if diff := cmp.Diff(want, []string{first, second}); diff != "" {
				t.Errorf("%s's Exec starts otherwise (-want +got):\n%s", name, diff)
			}
		}
	})
	for _, fn := range []string{"Dup2", "Dup3", "Close", "ForkExec", "StartProcess", "Exec", "Kill"} {
		if count[fn] == 0 {
			t.Errorf("no %s was patched", fn)
		}
	}
}

// TestPatchFilesHooksFmt: fmt's Fscan, Fscanln and Fscanf start with the
// statement that makes a scan of a file hold its read buffer, made from
// their own parameter names, and the template is added.
func TestPatchFilesHooksFmt(t *testing.T) {
	files, err := PatchFiles(goroot(t), runtime.Version(), "fmt", templatesOf(t, "fmt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["zz_stdiobuf_scan.go"]; !ok {
		t.Error("the template zz_stdiobuf_scan.go was not added")
	}
	got := make(map[string]string)
	eachFunc(t, files, func(name string, b []byte, fset *token.FileSet, fd *ast.FuncDecl) {
		if !strings.HasPrefix(fd.Name.Name, "Fscan") || len(fd.Body.List) == 0 {
			return
		}
		r, a := paramName(fd, 0), paramName(fd, len(fd.Type.Params.List)-1)
		want := "if rs := stdioScanBegin(" + r + ", " + a + "); rs != nil {\n\t\tdefer os_stdioScanEnd(rs)\n\t\t" + r + " = rs\n\t}"
		if first := nodeText(fset, b, fd.Body.List[0]); first != want {
			t.Errorf("%s's %s starts with %q, want %q", name, fd.Name.Name, first, want)
		}
		got[fd.Name.Name] = name
	})
	want := map[string]string{"Fscan": "scan.go", "Fscanln": "scan.go", "Fscanf": "scan.go"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("patched Fscan functions (-want +got):\n%s", diff)
	}
}

// eachFunc calls fn with each function of files that has a body and no
// receiver: the file's name, its source, its positions and the function.
func eachFunc(t *testing.T, files map[string][]byte, fn func(name string, src []byte, fset *token.FileSet, fd *ast.FuncDecl)) {
	t.Helper()
	for name, b := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, b, 0)
		if err != nil {
			t.Fatalf("%s does not parse: %v", name, err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Recv == nil {
				fn(name, b, fset, fd)
			}
		}
	}
}

func paramName(fd *ast.FuncDecl, i int) string {
	var names []string
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			names = append(names, n.Name)
		}
	}
	return names[i]
}

// nodeText is n's source, parsed from src with fset.
func nodeText(fset *token.FileSet, src []byte, n ast.Node) string {
	return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
}

// fakeRoot makes a GOROOT whose src/PKG holds files.
func fakeRoot(t *testing.T, pkg string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "src", pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// sighandler is a signal_unix.go whose sighandler has dieFromSignal's
// call, and then dump's, if it is not "".
func sighandler(dump string) string {
	return "package runtime\n\nfunc sighandler(sig uint32, info *siginfo, ctxt unsafe.Pointer, gp *g) {\n" +
		"\tif flags&_SigKill != 0 { dieFromSignal(sig) }\n\tif crashing.Load() == 0 { " + dump + " }\n}\n"
}

// checkdead is a proc.go whose checkdead reports main's Goexit and then,
// in words of its own, that every goroutine is asleep.
func checkdead(asleep string) string {
	return "package runtime\n\nfunc checkdead() {\n\tif x { fatal(\"no goroutines (main called runtime.Goexit) - deadlock!\") }\n" +
		"\tfatal(" + strconv.Quote(asleep) + ")\n}\n"
}

// TestPatchFilesNamesWhatMoved: a release whose runtime lacks a hooked
// function, or whose function lacks the call a hook goes before, or that
// declares once-only functions twice, stops the generation with an error
// naming the release, the file and the hook.
func TestPatchFilesNamesWhatMoved(t *testing.T) {
	complete := map[string]string{
		"panic.go":       "package runtime\n\nfunc gopanic(e any) { preprintpanics(); fatalpanic() }\nfunc Goexit() { goexit1() }\nfunc fatal(s string) {}\n",
		"print.go":       "package runtime\n\nfunc printlock() {}\n",
		"runtime.go":     "package runtime\n\nfunc syscall_Exit(code int) {}\n",
		"signal_unix.go": sighandler("startpanic_m()"),
		"os_windows.go":  "package runtime\n\nfunc ctrlHandler(_type uint32) uintptr { return 0 }\n",
		"proc.go":        checkdead("all goroutines are asleep - deadlock!"),
	}
	with := func(name, src string) map[string]string {
		m := make(map[string]string)
		for k, v := range complete {
			m[k] = v
		}
		m[name] = src
		return m
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"complete", complete, ""},
		{"no fatalpanic call", with("panic.go", "package runtime\n\nfunc gopanic(e any) { preprintpanics() }\nfunc Goexit() { goexit1() }\nfunc fatal(s string) {}\n"),
			"go9.99's runtime/panic.go: func gopanic has 0 call statements of fatalpanic, want 1"},
		{"no startpanic_m call", with("signal_unix.go", sighandler("")),
			"go9.99's runtime/signal_unix.go: func sighandler has 0 call statements of startpanic_m, want 1"},
		{"sighandler moved", with("signal_unix.go", "package runtime\n"),
			"go9.99's runtime has no func sighandler in signal_unix.go"},
		{"printlock twice", with("print2.go", "package runtime\n\nfunc printlock() {}\n"),
			"go9.99's runtime has 2 funcs printlock"},
		{"fatal moved to print.go", with("print.go", "package runtime\n\nfunc fatal(s string) {}\n"),
			"go9.99's runtime has 2 funcs fatal, no func printlock"},
		{"ctrlHandler moved", with("os_windows.go", "package runtime\n"),
			"go9.99's runtime has no func ctrlHandler in os_windows.go"},
		{"deadlock report reworded", with("proc.go", checkdead("all goroutines asleep")),
			`go9.99's runtime/proc.go: func checkdead has 0 call statements of fatal("all goroutines are asleep - deadlock!"), want 1`},
		{"sighandler without parameters", with("signal_unix.go", "package runtime\n\nfunc sighandler() { dieFromSignal(sig) }\n"),
			"go9.99's runtime/signal_unix.go: func sighandler has parameters [], not those its hook uses"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := PatchFiles(fakeRoot(t, "runtime", c.files), "go9.99", "runtime", nil)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrMoved) {
				t.Fatalf("err = %v, want ErrMoved", err)
			}
			if !strings.HasSuffix(err.Error(), c.want) {
				t.Errorf("error %q does not end with %q", err, c.want)
			}
		})
	}
}

// TestMerge: a template merged into a file of its package adds the
// imports the file lacks and its declarations after the file's.
func TestMerge(t *testing.T) {
	host := "//go:build unix\n\n// Package p.\npackage p\n\nimport \"unsafe\"\n\nvar x unsafe.Pointer\n"
	cases := []struct {
		name, tmpl, want, err string
	}{
		{"new import", "package p\n\nimport (\n\t\"internal/runtime/atomic\"\n\t\"unsafe\"\n)\n\n// y is added.\nvar y atomic.Bool\n\nvar z unsafe.Pointer\n",
			"//go:build unix\n\n// Package p.\npackage p\n\nimport (\n\t\"internal/runtime/atomic\"\n)\n\nimport \"unsafe\"\n\nvar x unsafe.Pointer\n\n// y is added.\nvar y atomic.Bool\n\nvar z unsafe.Pointer\n", ""},
		{"no imports", "package p\n\nfunc f() {}\n",
			"//go:build unix\n\n// Package p.\npackage p\n\nimport \"unsafe\"\n\nvar x unsafe.Pointer\n\nfunc f() {}\n", ""},
		{"other package", "package q\n", "", "package p, template package q"},
		{"renamed import", "package p\n\nimport u \"unsafe\"\n\nvar y u.Pointer\n", "", "the template imports unsafe as u, the file as unsafe"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := merge([]byte(host), []byte(c.tmpl))
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, string(got)); diff != "" {
				t.Errorf("merged (-want +got):\n%s", diff)
			}
		})
	}
}
