package osstdout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// filesTemplates are the std and files templates, what -files adds.
func filesTemplates(t *testing.T) map[string][]byte {
	t.Helper()
	all := templates(t)
	for name, b := range templatesOf(t, "files") {
		all[name] = b
	}
	return all
}

// rootTemplate is the template that declares os.Root's wrappers.
const rootTemplate = "zz_stdiobuf_root.go"

// declared returns the keys (declKey) of the functions src declares,
// sorted, and the paths it imports.
func declared(t *testing.T, name string, src []byte) (keys, imports []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			keys = append(keys, declKey(fd))
		}
	}
	for _, imp := range f.Imports {
		imports = append(imports, strings.Trim(imp.Path.Value, `"`))
	}
	slices.Sort(keys)
	return keys, imports
}

// TestFilesRootTemplate: the Root template declares a wrapper for each
// name of FilesRootMethods and FilesRootFuncs, and nothing else.
func TestFilesRootTemplate(t *testing.T) {
	got, _ := declared(t, rootTemplate, templatesOf(t, "files")[rootTemplate])
	if diff := cmp.Diff(sorted(declKeys(FilesRootMethods, FilesRootFuncs)), got); diff != "" {
		t.Errorf("%s's declarations (-FilesRoot names +template):\n%s", rootTemplate, diff)
	}
}

// TestFilesRootEveryPath: every exported method of os.Root in the
// toolchain that runs the test whose parameters include a name (a
// string) is wrapped, and with -files renamed; so a release that adds
// one fails here until it is added.
func TestFilesRootEveryPath(t *testing.T) {
	root := goroot(t)
	dir := filepath.Join(root, "src", "os")
	var named []string
	fset := token.NewFileSet()
	err := eachSource(dir, func(name string, src []byte) error {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() || !strings.HasPrefix(declKey(fd), "*Root.") {
				continue
			}
			for _, p := range fd.Type.Params.List {
				if id, ok := p.Type.(*ast.Ident); ok && id.Name == "string" {
					named = append(named, declKey(fd))
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(named) == 0 {
		t.Skipf("%s's os has no os.Root", root)
	}
	wrapped := declKeys(FilesRootMethods, nil)
	var missing []string
	for _, k := range named {
		if !slices.Contains(wrapped, k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("methods of os.Root that name a path and -files does not wrap: %v", missing)
	}
	out, err := Files(root, "this toolchain", filesTemplates(t), true)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, name := range sorted(keys(out)) {
		all.Write(out[name])
	}
	for _, k := range named {
		if !strings.Contains(all.String(), "(r *Root) "+rawPrefix+k[len("*Root."):]+"(") {
			t.Errorf("no method (*Root).%s%s with -files", rawPrefix, k[len("*Root."):])
		}
	}
	if !strings.Contains(all.String(), "func "+rawPrefix+"OpenRoot(") {
		t.Errorf("no func %sOpenRoot with -files", rawPrefix)
	}
}

// TestFilesDropsWhatRootLacks: with -files, a toolchain whose os lacks
// os.Root, or some of its methods, is patched with the rest: the
// wrappers of what it lacks are dropped from the Root template, with the
// imports only they used; without -files the Root names are not looked
// for at all.
func TestFilesDropsWhatRootLacks(t *testing.T) {
	// An os with every name -stdout and -files must find, and a Root
	// with the methods in has.
	fakeOS := func(t *testing.T, has []string) string {
		t.Helper()
		var src strings.Builder
		src.WriteString("package os\n\ntype File struct{ *file }\n\ntype file struct{ fd int }\n\ntype Process struct{}\n\ntype Root struct{}\n\n")
		for _, k := range append(declKeys(append(slices.Clone(Methods), FilesMethods...), append(slices.Clone(Funcs), FilesFuncs...)), has...) {
			if recv, name, ok := strings.Cut(strings.TrimPrefix(k, "*"), "."); ok {
				src.WriteString("func (x *" + recv + ") " + name + "() {}\n")
			} else {
				src.WriteString("func " + k + "() {}\n")
			}
		}
		return fakeGOROOT(t, src.String())
	}
	every := declKeys(FilesRootMethods, FilesRootFuncs)
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(every), func(k string) bool { return slices.Contains(drop, k) })
	}
	for _, c := range []struct {
		name        string
		has         []string
		wantImports []string
	}{
		{"every", every, []string{"time"}},
		{"no Chtimes, Link or OpenRoot", without("*Root.Chtimes", "*Root.Link", "OpenRoot"), nil},
		{"no Root", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Files(fakeOS(t, c.has), "go9.99", filesTemplates(t), true)
			if err != nil {
				t.Fatal(err)
			}
			keys, imports := declared(t, rootTemplate, out[rootTemplate])
			if diff := cmp.Diff(sorted(c.has), keys); diff != "" {
				t.Errorf("wrappers (-the os's Root names +kept):\n%s", diff)
			}
			if diff := cmp.Diff(c.wantImports, imports); diff != "" {
				t.Errorf("imports (-want +got):\n%s", diff)
			}
		})
	}
	// Without -files, an os with no Root at all is patched.
	if _, err := Files(fakeOS(t, nil), "go9.99", templates(t), false); err != nil {
		t.Errorf("without -files: %v", err)
	}
}

// TestDropDecls: dropping declarations from a template takes their doc
// comments and the comments inside them, and the imports only they used,
// and leaves the rest as it was.
func TestDropDecls(t *testing.T) {
	src := `package os

import (
	"time"
	_ "unsafe" // for go:linkname
)

// A sleeps.
func A() {
	// How long.
	time.Sleep(0)
}

// B stays.
func (r *Root) B() {}
`
	for _, c := range []struct {
		name string
		drop []string
		want string
	}{
		{"nothing", []string{"C"}, src},
		{"A", []string{"A"}, "package os\n\nimport (\n\t_ \"unsafe\" // for go:linkname\n)\n\n// B stays.\nfunc (r *Root) B() {}\n"},
		{"both", []string{"A", "*Root.B"}, "package os\n\nimport (\n\t_ \"unsafe\" // for go:linkname\n)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			drop := make(map[string]bool)
			for _, k := range c.drop {
				drop[k] = true
			}
			got, err := dropDecls("t.go", []byte(src), drop)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// fakeGOROOT returns a new GOROOT whose package os is the file src.
func fakeGOROOT(t *testing.T, src string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "src", "os")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}
