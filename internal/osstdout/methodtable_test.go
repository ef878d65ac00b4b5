package osstdout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The columns of the table in std/zz_stdiobuf_stdout.go's file comment.
var tableColumns = []string{"stdout", "stdin", "alias", "peer", "other"}

// tableCells is what a call of each of stdioStream's helpers in a wrapper
// puts in the table, by column. A helper a wrapper calls that is neither
// here nor declared in the methods file fails the test: the table would
// not say what it does.
var tableCells = map[string]map[string]string{
	"write":       {"stdout": "buffers"},
	"flushAsked":  {"stdout": "flushes, err"},
	"syncFlush":   {"stdout": "flushes, err"},
	"close":       {"stdout": "flushes, err"},
	"flushBefore": {"stdout": "flushes"},
	"beforeRead":  {"stdin": "before read", "alias": "orders", "peer": "before read"},
	"beforeWrite": {"alias": "orders", "peer": "flushes"},
	"buffering":   {},
}

// everyFile is what flushBefore(nil) and stdioBeforePeerWrite put in the
// table: a flush whatever the file.
var everyFile = map[string]string{"stdout": "flushes", "stdin": "flushes", "alias": "flushes", "peer": "flushes", "other": "flushes"}

// parseTable returns the rows of the table in the file comment of src, by
// name, each a map from column to cell ("-" left out), and the names in
// the order of the rows.
func parseTable(t *testing.T, src string) (map[string]map[string]string, []string) {
	t.Helper()
	lines := strings.Split(src, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "package ") {
			break
		}
		if f := strings.Fields(strings.TrimPrefix(l, "//\t")); strings.HasPrefix(l, "//\t") && cmp.Equal(f, append([]string{"name"}, tableColumns...)) {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("no table with the columns name %s in the file comment", strings.Join(tableColumns, " "))
	}
	// The header's columns are where each cell starts.
	header := strings.TrimPrefix(lines[start], "//\t")
	at := make([]int, len(tableColumns))
	for i, c := range tableColumns {
		at[i] = regexp.MustCompile(`\b` + c + `\b`).FindStringIndex(header)[0]
	}
	rows := make(map[string]map[string]string)
	var order []string
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "//\t") {
			break
		}
		l = strings.TrimPrefix(l, "//\t")
		if len(l) < at[0] {
			t.Fatalf("table row %q is shorter than its first column", l)
		}
		name := strings.TrimSpace(l[:at[0]])
		row := make(map[string]string)
		for i, c := range tableColumns {
			end := len(l)
			if i+1 < len(at) {
				end = min(at[i+1], len(l))
			}
			if cell := strings.TrimSpace(l[min(at[i], len(l)):end]); cell != "-" && cell != "" {
				row[c] = cell
			}
		}
		if _, dup := rows[name]; dup {
			t.Errorf("table has two rows %s", name)
		}
		rows[name] = row
		order = append(order, name)
	}
	return rows, order
}

// derivedTable returns, for each wrapper src declares (a method of *File
// or a function), the row its calls of stdioOut's helpers make, following
// the helpers src itself declares (seeing).
func derivedTable(t *testing.T, src []byte) map[string]map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "zz_stdiobuf_methods.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	helpers := make(map[string]*ast.FuncDecl) // stdioStream's methods declared in src
	var wrappers []*ast.FuncDecl
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fd.Recv != nil && recvName(fd) == "stdioStream" {
			helpers[fd.Name.Name] = fd
			continue
		}
		wrappers = append(wrappers, fd)
	}
	rows := make(map[string]map[string]string)
	for _, w := range wrappers {
		row := make(map[string]string)
		var walk func(body *ast.BlockStmt, depth int)
		walk = func(body *ast.BlockStmt, depth int) {
			ast.Inspect(body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "stdioBeforePeerWrite" {
					for col, cell := range everyFile {
						row[col] = cell
					}
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "stdioOut" && x.Name != "s" {
					return true
				}
				name := sel.Sel.Name
				if h, ok := helpers[name]; ok && depth < 4 {
					walk(h.Body, depth+1)
					return true
				}
				cells, ok := tableCells[name]
				if name == "flushBefore" && len(c.Args) == 1 && isNil(c.Args[0]) {
					cells, ok = everyFile, true
				}
				if !ok {
					t.Errorf("%s calls stdioStream.%s, which the table's test does not know", w.Name.Name, name)
					return true
				}
				for col, cell := range cells {
					old, ok := row[col]
					// A flush made before the call (Fd on a
					// peer) covers the one handed off.
					if ok && old == "flushes" && cell == "before read" {
						continue
					}
					if ok && old == "before read" && cell == "flushes" {
						ok = false
					}
					if ok && old != cell {
						t.Errorf("%s: %s is both %q and %q", w.Name.Name, col, old, cell)
					}
					row[col] = cell
				}
				return true
			})
		}
		walk(w.Body, 0)
		name := w.Name.Name
		if w.Recv != nil && recvName(w) != "File" {
			name = recvName(w) + "." + name
		}
		rows[name] = row
	}
	return rows
}

func recvName(fd *ast.FuncDecl) string {
	e := fd.Recv.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, _ := e.(*ast.Ident)
	if id == nil {
		return ""
	}
	return id.Name
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// TestMethodTable: the table in std/zz_stdiobuf_stdout.go's file comment
// has a row for each name in Methods and Funcs, in that order, and no
// other, and each row says what the wrapper in zz_stdiobuf_methods.go
// does on each file.
func TestMethodTable(t *testing.T) {
	std := templates(t)
	table, order := parseTable(t, string(std["zz_stdiobuf_stdout.go"]))
	want := append(append([]string(nil), Methods...), Funcs...)
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("table rows, against Methods then Funcs (-want +got):\n%s", diff)
	}
	code := derivedTable(t, std["zz_stdiobuf_methods.go"])
	wrapped := make([]string, 0, len(code))
	for name := range code {
		wrapped = append(wrapped, name)
	}
	if diff := cmp.Diff(want, wrapped, cmp.Transformer("sort", sorted)); diff != "" {
		t.Errorf("wrappers declared, against Methods and Funcs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(code, table); diff != "" {
		t.Errorf("table, against what the wrappers do (-code +table):\n%s", diff)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
