package osstdout

import (
	"errors"
	"go/ast"
	"go/token"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// syscallCalls returns the calls of package syscall's functions and of
// the zone functions (stdioZone...) in the functions of src but those.
func syscallCalls(t *testing.T, name string, src []byte) map[string][]string {
	t.Helper()
	calls := make(map[string][]string)
	eachFunc(t, map[string][]byte{name: src}, func(_ string, _ []byte, _ *token.FileSet, fd *ast.FuncDecl) {
		if strings.HasPrefix(fd.Name.Name, "stdioZone") {
			return
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := c.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "syscall" {
					calls[fd.Name.Name] = append(calls[fd.Name.Name], "syscall."+fn.Sel.Name)
				}
			case *ast.Ident:
				if strings.HasPrefix(fn.Name, "stdioZone") {
					calls[fd.Name.Name] = append(calls[fd.Name.Name], fn.Name)
				}
			}
			return true
		})
	})
	return calls
}

// TestPatchFilesRedirectsTime: on the toolchain that runs the test,
// package time's sys_unix.go opens, reads and closes through the zone
// functions (its other syscall calls, Seek's, stay), the template of
// that name is merged into it and the other added.
func TestPatchFilesRedirectsTime(t *testing.T) {
	files, err := PatchFiles(goroot(t), runtime.Version(), "time", templatesOf(t, "time"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["zz_stdiobuf_zone.go"]; !ok {
		t.Error("the template zz_stdiobuf_zone.go was not added")
	}
	src, ok := files["sys_unix.go"]
	if !ok {
		t.Fatal("sys_unix.go is not patched")
	}
	if !strings.Contains(string(src), "func stdioZoneRead(") {
		t.Error("the template sys_unix.go is not merged into time's sys_unix.go")
	}
	got := syscallCalls(t, "sys_unix.go", src)
	delete(got, "interrupt") // its Kill and Getpid are not a zone file's
	want := map[string][]string{
		"open":    {"stdioZoneOpen"},
		"read":    {"stdioZoneRead"},
		"closefd": {"stdioZoneClose"},
		"preadn":  {"syscall.Seek", "stdioZoneRead"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls in time's sys_unix.go (-want +got):\n%s", diff)
	}
}

// TestPatchFilesNamesMovedCalls: a release whose time's sys_unix.go no
// longer makes a redirected call stops the generation with an error
// naming the release and the call; the file's own name for package
// syscall is followed.
func TestPatchFilesNamesMovedCalls(t *testing.T) {
	const all = "package time\n\nimport sc \"syscall\"\n\n" +
		"func open(name string) (uintptr, error) { fd, err := sc.Open(name, sc.O_RDONLY, 0); return uintptr(fd), err }\n" +
		"func read(fd uintptr, buf []byte) (int, error) { return sc.Read(int(fd), buf) }\n" +
		"func closefd(fd uintptr) { sc.Close(int(fd)) }\n"
	for _, c := range []struct {
		name, src, want string
	}{
		{"complete", all, ""},
		{"no Read", strings.Replace(all, "sc.Read(int(fd), buf)", "0, nil", 1), "go9.99's time has no call of syscall.Read in sys_unix.go"},
		{"no file", "", "go9.99's time has no call of syscall.Close in sys_unix.go, no call of syscall.Open in sys_unix.go, no call of syscall.Read in sys_unix.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"zoneinfo.go": "package time\n"}
			if c.src != "" {
				files["sys_unix.go"] = c.src
			}
			out, err := PatchFiles(fakeRoot(t, "time", files), "go9.99", "time", nil)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				got := syscallCalls(t, "sys_unix.go", out["sys_unix.go"])
				want := map[string][]string{"open": {"stdioZoneOpen"}, "read": {"stdioZoneRead"}, "closefd": {"stdioZoneClose"}}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
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
