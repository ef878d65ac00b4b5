// Package osstdout makes the overlay files that give package os a buffered
// standard output (`stdiobuf build -stdout`).
//
// Package os cannot be given a buffered standard output from outside: fmt,
// log and every other writer call (*os.File).Write directly. So the overlay
// renames the toolchain's own methods of *File that see the descriptor
// (Write, Read, Fd, Close, ...) and os.StartProcess to stdioRaw<Name>, and
// adds files (std/zz_stdiobuf_*.go) that take their place: they send the
// original standard output through a bufio.Writer, which under the same
// overlay is package stream, and flush it before anything else can see the
// descriptor. Renaming works on the syntax tree of whatever os the
// toolchain has, so a new Go release needs no new copy of os; a release
// that moves or drops one of the hooked names stops the generation with a
// message that names it.
package osstdout

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Packages are the standard-library packages -stdout patches: os (Files)
// and the hooks os's buffers need in runtime, syscall, internal/poll and
// fmt (PatchFiles; internal/poll's before a socket's reads and writes,
// fmt's to scan a file through its read buffer under -files), and
// time's reads of the zone files, which the report counts. A generator
// that caches what they return hashes these packages' files into its
// cache key.
var Packages = []string{"os", "runtime", "syscall", "internal/poll", "fmt", "os/signal", "time"}

// Methods are the methods of *os.File (and "T.M": of *T) that the added
// files wrap.
var Methods = []string{
	"Write", "WriteAt", "ReadFrom", "Read", "Fd", "SyscallConn", "Sync",
	"Seek", "Stat", "Truncate", "Chmod", "Chown", "Close",
	"Process.Signal", "Process.Kill",
}

// Funcs are the package-level functions of os that the added files wrap.
var Funcs = []string{"StartProcess"}

// FilesMethods and FilesFuncs are what -files wraps besides Methods and
// Funcs (its templates, in the files directory, declare the wrappers):
// the rest of *File's methods that see the file and os's path
// operations, so that every buffered file is written out before anything
// can see it (the causal rule). A name "T.M" is a method of *T; "M"
// alone, of *File.
var (
	FilesMethods = []string{"ReadAt", "WriteTo", "ReadDir", "Readdir", "Readdirnames", "Process.Wait"}
	FilesFuncs   = []string{
		"Stat", "Lstat", "OpenFile", "Rename", "Link", "Symlink", "Readlink",
		"Remove", "RemoveAll", "Truncate", "Chmod", "Chown", "Lchown", "Chtimes",
		"Mkdir", "MkdirAll", "MkdirTemp", "ReadDir",
	}
)

// FilesRootMethods and FilesRootFuncs are what -files wraps of os.Root
// (its methods that name a path, and OpenRoot), in the form of
// FilesMethods and FilesFuncs. They are optional: where a release lacks
// one, the generator drops its wrapper from the template that declares
// it (files/zz_stdiobuf_root.go) instead of stopping, so a release older
// than a method, or than os.Root, builds with the rest.
var (
	FilesRootMethods = []string{
		"Root.OpenRoot", "Root.Open", "Root.Create", "Root.OpenFile",
		"Root.ReadFile", "Root.WriteFile", "Root.Stat", "Root.Lstat",
		"Root.Readlink", "Root.Rename", "Root.Link", "Root.Symlink",
		"Root.Remove", "Root.RemoveAll", "Root.Mkdir", "Root.MkdirAll",
		"Root.Chmod", "Root.Chown", "Root.Lchown", "Root.Chtimes",
	}
	FilesRootFuncs = []string{"OpenRoot"}
)

// filesOff is the declaration, in the std templates, of the constant
// that turns -files on; Files with files set makes it true.
const (
	filesOff = "const stdioFilesOn = false"
	filesOn  = "const stdioFilesOn = true"
)

// fileStruct is os's per-file struct (*File points to one); the patch adds
// to it the fields of addedFields, whose types the added files declare.
const fileStruct = "file"

// The fields the patch adds to fileStruct: aliasField, whether the file
// is the same file as the original standard output, decided once per
// *File; fileField, the state of the file's own write buffer under
// -files (whether it has one) and its open's flags; readField, the state
// of its read buffer under -files; notesField, what a *File keeps beyond
// those states (its buffers, its identity), made at the first need.
const (
	aliasField = "stdioAlias"
	aliasType  = "stdioAliasState"
	fileField  = "stdioFile"
	fileType   = "stdioFileState"
	readField  = "stdioRead"
	readType   = "stdioReadState"
	notesField = "stdioNotes"
	notesType  = "stdioNotesRef"
)

// addedFields are the fields the patch adds to fileStruct, name and type,
// in order.
var addedFields = [][2]string{{aliasField, aliasType}, {fileField, fileType}, {readField, readType}, {notesField, notesType}}

// rawPrefix is what a wrapped name is renamed to: Write becomes stdioRawWrite.
const rawPrefix = "stdioRaw"

// buildTag keeps the added files out of every build but the overlay's:
// they belong to package os and import std-internal packages.
const buildTag = "//go:build stdiobuf_std\n"

// ErrMissing is wrapped by the error Files returns when the toolchain's os
// lacks a name the added files wrap.
var ErrMissing = errors.New("osstdout: package os lacks a name -stdout wraps")

// Files returns the overlay for package os of the toolchain whose source
// tree is goroot/src: the base name of each file of os to replace or add,
// and its new content. templates are the files to add, by base name, as
// they are in this package's std directory, and with files (-files) also
// its files directory (each starts with the build tag that keeps it out
// of other builds); a template named as a file of os is merged into it,
// the way to add code under that file's build constraints. A name the
// toolchain's os lacks stops the generation (ErrMissing), but for those
// of FilesRootMethods and FilesRootFuncs, whose wrappers are dropped.
// goVersion only names the toolchain in errors.
func Files(goroot, goVersion string, templates map[string][]byte, files bool) (map[string][]byte, error) {
	dir := filepath.Join(goroot, "src", "os")
	want := make(map[string]bool)
	methods, funcs := Methods, Funcs
	if files {
		methods = append(append([]string(nil), Methods...), FilesMethods...)
		funcs = append(append([]string(nil), Funcs...), FilesFuncs...)
	}
	for _, k := range declKeys(methods, funcs) {
		want[k] = false
	}
	optional := make(map[string]bool)
	if files {
		for _, k := range declKeys(FilesRootMethods, FilesRootFuncs) {
			want[k], optional[k] = false, true
		}
	}
	want["type "+fileStruct] = false
	out := make(map[string][]byte)
	fset := token.NewFileSet()
	err := eachSource(dir, func(name string, src []byte) error {
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		renamed := rename(f, want)
		if !addFields(f, want) && !renamed {
			return nil
		}
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, f); err != nil {
			return fmt.Errorf("osstdout: formatting %s: %w", path, err)
		}
		out[name] = buf.Bytes()
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	lacks := make(map[string]bool) // the optional names the toolchain lacks
	for k, found := range want {
		switch {
		case found:
		case optional[k]:
			lacks[k] = true
		default:
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("%w: %s has no %s", ErrMissing, goVersion, strings.Join(missing, ", "))
	}
	if len(templates) == 0 {
		return nil, errors.New("osstdout: no files to add to package os")
	}
	switched := 0
	for name, b := range templates {
		b, ok := bytes.CutPrefix(b, []byte(buildTag))
		if !ok {
			return nil, fmt.Errorf("osstdout: %s does not start with %q", name, buildTag)
		}
		if files && bytes.Contains(b, []byte(filesOff)) {
			b = bytes.Replace(b, []byte(filesOff), []byte(filesOn), 1)
			switched++
		}
		if len(lacks) > 0 {
			if b, err = dropDecls(name, b, lacks); err != nil {
				return nil, err
			}
		}
		if err := addTemplate(out, dir, name, b, goVersion+"'s os"); err != nil {
			return nil, err
		}
	}
	if files && switched != 1 {
		return nil, fmt.Errorf("osstdout: %d templates declare %q, want one", switched, filesOff)
	}
	return out, nil
}

// declKeys returns the keys rename knows the declarations by ("*T.M"
// for a method, the name for a function) of methods, in the form of
// Methods ("M" a method of *File, "T.M" of *T), and funcs.
func declKeys(methods, funcs []string) []string {
	var keys []string
	for _, m := range methods {
		if !strings.Contains(m, ".") {
			m = "File." + m
		}
		keys = append(keys, "*"+m)
	}
	return append(keys, funcs...)
}

// declKey is the key of fd in rename's want: "*T.M" for a method of *T,
// the name for a function; "" for a method of any other receiver.
func declKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil {
		return fd.Name.Name
	}
	if len(fd.Recv.List) != 1 {
		return ""
	}
	t := ptrType(fd.Recv.List[0].Type)
	if t == "" {
		return ""
	}
	return "*" + t + "." + fd.Name.Name
}

// dropDecls returns the template src, named name, without its
// declarations of the names in drop (keys as rename's), and without the
// imports that only they used; src itself if it declares none of them.
func dropDecls(name string, src []byte, drop map[string]bool) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("osstdout: template %s: %w", name, err)
	}
	var decls []ast.Decl
	var gone []*ast.FuncDecl // the dropped declarations, whose comments go too
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && drop[declKey(fd)] {
			gone = append(gone, fd)
			continue
		}
		decls = append(decls, d)
	}
	if len(gone) == 0 {
		return src, nil
	}
	f.Decls = decls
	f.Comments = slices.DeleteFunc(f.Comments, func(c *ast.CommentGroup) bool {
		return slices.ContainsFunc(gone, func(fd *ast.FuncDecl) bool {
			return fd.Doc == c || c.Pos() >= fd.Pos() && c.End() <= fd.End()
		})
	})
	used := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	// The templates name each import by its last element, or rename it.
	keep := func(imp *ast.ImportSpec) bool {
		path := strings.Trim(imp.Path.Value, `"`)
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		return local == "_" || used[local]
	}
	decls = nil
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			specs := gd.Specs[:0]
			for _, sp := range gd.Specs {
				if keep(sp.(*ast.ImportSpec)) {
					specs = append(specs, sp)
				}
			}
			if gd.Specs = specs; len(specs) == 0 {
				continue
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("osstdout: formatting template %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// eachSource calls fn with the base name and the source of each Go file
// of the package in dir, test files left out, in the order of the names,
// and stops at the first error.
func eachSource(dir string, fn func(name string, src []byte) error) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := fn(name, src); err != nil {
			return err
		}
	}
	return nil
}

// rename renames, in f, the declarations named in want (as "*File.Name"
// for methods, "Name" for functions), marks them found, and reports
// whether it renamed any.
func rename(f *ast.File, want map[string]bool) bool {
	changed := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		key := declKey(fd)
		if _, ok := want[key]; !ok || key == "" {
			continue
		}
		want[key] = true
		fd.Name.Name = rawPrefix + fd.Name.Name
		changed = true
	}
	return changed
}

// addFields adds addedFields to the struct type fileStruct if f declares
// it, marks it found in want, and reports whether it did.
func addFields(f *ast.File, want map[string]bool) bool {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || ts.Name.Name != fileStruct {
				continue
			}
			// Placed at the closing brace, so that the printer keeps
			// every comment with the field it follows.
			at := st.Fields.Closing
			for _, fd := range addedFields {
				st.Fields.List = append(st.Fields.List, &ast.Field{
					Names: []*ast.Ident{{NamePos: at, Name: fd[0]}},
					Type:  &ast.Ident{NamePos: at, Name: fd[1]},
				})
			}
			want["type "+fileStruct] = true
			return true
		}
	}
	return false
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ptrType returns T if e is *T for a type name T, else "".
func ptrType(e ast.Expr) string {
	s, ok := e.(*ast.StarExpr)
	if !ok {
		return ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name
}
