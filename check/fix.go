package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// quietPackages are the packages whose functions and methods a loop may
// call and still have its writes moved to a bufio.Writer: they neither
// write to a file, nor read one, nor wait.
var quietPackages = map[string]bool{
	"bytes": true, "errors": true, "maps": true, "math": true, "path": true,
	"slices": true, "sort": true, "strconv": true, "strings": true,
	"unicode": true, "unicode/utf8": true,
}

// quietFuncs are the functions of other packages a loop may call.
var quietFuncs = map[string]bool{
	"fmt.Sprint": true, "fmt.Sprintf": true, "fmt.Sprintln": true, "fmt.Errorf": true,
	"fmt.Append": true, "fmt.Appendf": true, "fmt.Appendln": true,
	"path/filepath.Join": true, "path/filepath.Base": true, "path/filepath.Dir": true,
	"path/filepath.Ext": true, "path/filepath.Rel": true, "path/filepath.Clean": true,
	"time.Now": true, "time.Since": true,
}

// quietBuiltins are the builtins a loop may call.
var quietBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "copy": true, "delete": true,
	"len": true, "max": true, "min": true, "new": true, "make": true,
}

// loopFix returns the edit that moves the loop's writes to a bufio.Writer
// over their file, flushed after the loop, or nil where that is not
// safe: the loop writes to one file only, with calls the edit can
// rewrite; it ranges over data in memory or tests a condition without
// calls; its body cannot leave it but by its end or a break (no return,
// goto, labeled branch, defer, panic or exit), cannot block (no channel
// operation, select or call of a function that may read, wait or write
// elsewhere) and names the file only in the calls rewritten.
func (c *checker) loopFix(lr *loopRecords) *analysis.SuggestedFix {
	first := lr.recs[0]
	key := first.file
	targets := map[ast.Node]bool{}
	for _, r := range lr.recs {
		if !r.fixable() || r.file != key {
			return nil
		}
		if r.target != nil {
			if !c.plainFile(r.target) {
				return nil
			}
			targets[r.target] = true
		}
		targets[r.call] = true
	}
	if !c.memoryLoop(lr.loop) || !c.quietBody(lr.loop, targets) {
		return nil
	}
	parent := lr.stack[len(lr.stack)-2]
	switch parent.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil
	}
	file := c.fileOf(lr.stack)
	if file == nil {
		return nil
	}
	var edits []analysis.TextEdit
	qual, importEdit, ok := c.bufioQualifier(file, lr.loop.Pos())
	if !ok {
		return nil
	}
	if importEdit != nil {
		edits = append(edits, *importEdit)
	}
	fileText := key
	if first.stdout {
		os := importName(file, "os")
		if os == "" {
			return nil
		}
		fileText = os + ".Stdout"
	}
	name := c.freshName(lr.loop, "bw", c.fixNames[parent])
	if name == "" {
		return nil
	}
	if c.fixNames[parent] == nil {
		c.fixNames[parent] = map[string]bool{}
	}
	c.fixNames[parent][name] = true
	indent := c.indentAt(lr.loop.Pos())
	edits = append(edits,
		analysis.TextEdit{Pos: lr.loop.Pos(), End: lr.loop.Pos(), NewText: []byte(fmt.Sprintf("%s := %s.NewWriter(%s)\n%s", name, qual, fileText, indent))},
		analysis.TextEdit{Pos: lr.loop.End(), End: lr.loop.End(), NewText: []byte(fmt.Sprintf("\n%s%s.Flush()", indent, name))},
	)
	for _, r := range lr.recs {
		if r.stdout {
			sel := r.call.Fun.(*ast.SelectorExpr).Sel
			edits = append(edits, analysis.TextEdit{Pos: sel.Pos(), End: sel.End(), NewText: []byte("F" + strings.ToLower(sel.Name[:1]) + sel.Name[1:])})
			sep := name
			if len(r.call.Args) > 0 {
				sep += ", "
			}
			edits = append(edits, analysis.TextEdit{Pos: r.call.Lparen + 1, End: r.call.Lparen + 1, NewText: []byte(sep)})
			continue
		}
		edits = append(edits, analysis.TextEdit{Pos: r.target.Pos(), End: r.target.End(), NewText: []byte(name)})
	}
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Write to %s through a bufio.Writer flushed after the loop", key),
		TextEdits: edits,
	}
}

// plainFile reports whether e names a file the same way wherever it is
// written in a loop that does not assign to it: an identifier, or
// os.Stdout or os.Stderr.
func (c *checker) plainFile(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		_, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		v, ok := c.pass.TypesInfo.Uses[e.Sel].(*types.Var)
		return ok && v.Pkg() != nil && v.Pkg().Path() == "os" && (v.Name() == "Stdout" || v.Name() == "Stderr")
	}
	return false
}

// memoryLoop reports whether loop ranges over a slice, array, map, string
// or integer, or has a condition that calls nothing but len and cap.
func (c *checker) memoryLoop(loop ast.Stmt) bool {
	switch loop := loop.(type) {
	case *ast.RangeStmt:
		t := c.pass.TypesInfo.TypeOf(loop.X)
		if t == nil {
			return false
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
			return true
		case *types.Basic:
			return u.Info()&(types.IsString|types.IsInteger) != 0
		}
		return false
	case *ast.ForStmt:
		if loop.Cond == nil {
			return false
		}
		ok := true
		ast.Inspect(loop.Cond, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if b, isB := c.pass.TypesInfo.Uses[identOf(n.Fun)].(*types.Builtin); !isB || (b.Name() != "len" && b.Name() != "cap") {
					ok = false
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					ok = false
				}
			}
			return ok
		})
		return ok
	}
	return false
}

// quietBody reports whether the loop's body, its post statement and its
// condition can neither leave the loop but at its end or by a plain
// break, nor block, nor touch an *os.File but in the nodes of targets.
func (c *checker) quietBody(loop ast.Stmt, targets map[ast.Node]bool) bool {
	var parts []ast.Node
	switch loop := loop.(type) {
	case *ast.RangeStmt:
		parts = []ast.Node{loop.Body}
	case *ast.ForStmt:
		parts = []ast.Node{loop.Cond, loop.Body}
		if loop.Post != nil {
			parts = append(parts, loop.Post)
		}
	}
	ok := true
	for _, part := range parts {
		ast.Inspect(part, func(n ast.Node) bool {
			if !ok {
				return false
			}
			if targets[n] {
				if call, isCall := n.(*ast.CallExpr); isCall {
					// The rewritten call: look at its other arguments only.
					for _, a := range call.Args {
						if !targets[ast.Unparen(a)] && !c.quietExpr(a, targets) {
							ok = false
						}
					}
					if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel && !targets[ast.Unparen(sel.X)] && !isPackage(c.pass, sel.X) {
						ok = false
					}
					return false
				}
				return false
			}
			ok = c.quietNode(n)
			return ok
		})
	}
	return ok
}

// quietExpr reports whether e, outside the calls of targets, is quiet.
func (c *checker) quietExpr(e ast.Expr, targets map[ast.Node]bool) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok || targets[n] {
			return false
		}
		ok = c.quietNode(n)
		return ok
	})
	return ok
}

// quietNode reports whether n by itself neither leaves the loop, nor
// blocks, nor is an *os.File.
func (c *checker) quietNode(n ast.Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *ast.ReturnStmt, *ast.DeferStmt, *ast.GoStmt, *ast.FuncLit, *ast.SelectStmt, *ast.SendStmt, *ast.LabeledStmt:
		return false
	case *ast.BranchStmt:
		return n.Label == nil && n.Tok != token.GOTO && n.Tok != token.FALLTHROUGH
	case *ast.UnaryExpr:
		return n.Op != token.ARROW
	case *ast.RangeStmt:
		t := c.pass.TypesInfo.TypeOf(n.X)
		if t == nil {
			return false
		}
		switch t.Underlying().(type) {
		case *types.Chan, *types.Signature:
			return false
		}
	case *ast.CallExpr:
		return c.quietCall(n)
	case ast.Expr:
		if t := c.pass.TypesInfo.TypeOf(n); t != nil && isOSFile(t) {
			return false
		}
	}
	return true
}

// quietCall reports whether call is a conversion, a builtin other than
// panic, print and println, or a function or method of quietPackages or
// quietFuncs.
func (c *checker) quietCall(call *ast.CallExpr) bool {
	if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	if b, ok := c.pass.TypesInfo.Uses[identOf(call.Fun)].(*types.Builtin); ok {
		return quietBuiltins[b.Name()]
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if quietPackages[path] {
		return true
	}
	if fn.Type().(*types.Signature).Recv() == nil {
		return quietFuncs[path+"."+fn.Name()]
	}
	// Methods: of a quiet package's types, or time.Time's and Duration's.
	return path == "time" && fn.Name() != "Sleep"
}

// isPackage reports whether e names an imported package.
func isPackage(pass *analysis.Pass, e ast.Expr) bool {
	id := identOf(e)
	if id == nil {
		return false
	}
	_, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
	return ok
}

// fileOf returns the file at the bottom of stack.
func (c *checker) fileOf(stack []ast.Node) *ast.File {
	if len(stack) == 0 {
		return nil
	}
	f, _ := stack[0].(*ast.File)
	return f
}

// importName returns the name file imports path as, or "" if it does not
// import it under a usable name.
func importName(file *ast.File, path string) string {
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		if imp.Name == nil {
			return path[strings.LastIndex(path, "/")+1:]
		}
		if imp.Name.Name == "_" || imp.Name.Name == "." {
			return ""
		}
		return imp.Name.Name
	}
	return ""
}

// bufioQualifier returns the name to call NewWriter by at pos in file:
// the name file imports bufio or stream under, or bufio with the edit
// that imports it. ok is false if neither can be used.
func (c *checker) bufioQualifier(file *ast.File, pos token.Pos) (string, *analysis.TextEdit, bool) {
	for _, path := range []string{"bufio", streamPath} {
		if name := importName(file, path); name != "" {
			if _, obj := c.scopeAt(pos).LookupParent(name, pos); obj != nil {
				if _, isPkg := obj.(*types.PkgName); isPkg {
					return name, nil, true
				}
			}
			return "", nil, false
		}
	}
	if _, obj := c.scopeAt(pos).LookupParent("bufio", pos); obj != nil {
		return "", nil, false
	}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		if gen.Lparen.IsValid() {
			return "bufio", &analysis.TextEdit{Pos: gen.Lparen + 1, End: gen.Lparen + 1, NewText: []byte("\n\t\"bufio\"")}, true
		}
		return "bufio", &analysis.TextEdit{Pos: gen.Pos(), End: gen.Pos(), NewText: []byte("import \"bufio\"\n")}, true
	}
	return "bufio", &analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport \"bufio\"")}, true
}

// scopeAt returns the innermost scope at pos.
func (c *checker) scopeAt(pos token.Pos) *types.Scope {
	if s := c.pass.Pkg.Scope().Innermost(pos); s != nil {
		return s
	}
	return c.pass.Pkg.Scope()
}

// freshName returns base, or base with a number, that names nothing at
// the loop's position nor inside it and is not in taken (the names
// earlier fixes declare in the same block), or "".
func (c *checker) freshName(loop ast.Stmt, base string, taken map[string]bool) string {
	used := map[string]bool{}
	ast.Inspect(loop, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	for i := 0; i < 10; i++ {
		name := base
		if i > 0 {
			name += strconv.Itoa(i)
		}
		if _, obj := c.scopeAt(loop.Pos()).LookupParent(name, loop.Pos()); obj == nil && !used[name] && !taken[name] {
			return name
		}
	}
	return ""
}

// indentAt returns the white space that starts the line of pos.
func (c *checker) indentAt(pos token.Pos) string {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}
