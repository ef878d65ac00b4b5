package overlay

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"sort"
	"strings"
)

// An api maps each exported name of a package (funcs, types, vars,
// consts, methods as "(*T).M", exported fields as "T.F") to what a user
// of it depends on: a func's signature without parameter names, a type's
// kind or alias target, a field's type. Vars and consts map to their
// kind only: bufio's values come from bufio's own declarations.
type api map[string]string

// apiOf reads the exported API of a package's non-test files, whatever
// their build constraints.
func apiOf(fset *token.FileSet, files map[string]*ast.File) api {
	a := make(api)
	for name, f := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				key := d.Name.Name
				if d.Recv != nil {
					recv := exprText(fset, d.Recv.List[0].Type)
					if !ast.IsExported(strings.TrimPrefix(recv, "*")) {
						continue
					}
					key = "(" + recv + ")." + key
				}
				a[key] = funcText(fset, d.Type)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								a[n.Name] = d.Tok.String()
							}
						}
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							addType(a, fset, s)
						}
					}
				}
			}
		}
	}
	return a
}

// addType records a type and, for a struct, its exported fields.
func addType(a api, fset *token.FileSet, s *ast.TypeSpec) {
	if s.Assign != 0 {
		a[s.Name.Name] = "type = " + exprText(fset, s.Type)
		return
	}
	st, ok := s.Type.(*ast.StructType)
	if !ok {
		a[s.Name.Name] = "type " + exprText(fset, s.Type)
		return
	}
	a[s.Name.Name] = "type struct"
	for _, f := range st.Fields.List {
		typ := exprText(fset, f.Type)
		if len(f.Names) == 0 { // embedded: the field is named by its type
			n := strings.TrimPrefix(typ, "*")
			if i := strings.LastIndex(n, "."); i >= 0 {
				n = n[i+1:]
			}
			if ast.IsExported(n) {
				a[s.Name.Name+"."+n] = "embedded " + typ
			}
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				a[s.Name.Name+"."+n.Name] = "field " + typ
			}
		}
	}
}

// funcText is a func type's text without parameter names.
func funcText(fset *token.FileSet, ft *ast.FuncType) string {
	return "func(" + fieldTypes(fset, ft.Params) + ")" + results(fset, ft.Results)
}

func results(fset *token.FileSet, fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	return " (" + fieldTypes(fset, fl) + ")"
}

func fieldTypes(fset *token.FileSet, fl *ast.FieldList) string {
	var types []string
	for _, f := range fl.List {
		t := exprText(fset, f.Type)
		for range max(1, len(f.Names)) {
			types = append(types, t)
		}
	}
	return strings.Join(types, ", ")
}

func exprText(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	printer.Fprint(&b, fset, e)
	return b.String()
}

// checkAPI returns an error naming every exported name of std's bufio
// that gen lacks or declares differently, all on one line.
func checkAPI(std *pkgFiles, gen map[string][]byte) error {
	fset := token.NewFileSet()
	files := make(map[string]*ast.File)
	for name, b := range gen {
		f, err := parser.ParseFile(fset, name, b, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[name] = f
	}
	want, have := apiOf(std.fset, std.files), apiOf(fset, files)
	var problems []string
	for _, name := range sortedKeys(want) {
		h, ok := have[name]
		switch {
		case !ok:
			problems = append(problems, name+" ("+want[name]+"), which stream lacks")
		case h != want[name]:
			problems = append(problems, name+" as "+want[name]+", where stream has "+h)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return errors.New(strings.Join(problems, "; "))
}
