package check

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A file that the program binds to a field for a span of statements and
// also hands to the child processes it starts is shared with them: a
// shell's runner puts the file a redirection opens in its stdout field
// for one statement (saving the field before and putting it back
// after), writes its builtins' output there and gives the same field to
// each command the statement starts (exec.Cmd's Stdout). What the
// program writes there must reach the descriptor in order with what its
// children write, so a buffer could hold it only until the next child
// starts (stdiobuf build -files writes it out there), and what it reads
// there must stop where its own input ends (a shell's read builtin reads
// a byte at a time: what follows the line is the next command's). A
// struct field of the package whose value reaches a child and that a
// function saves and restores (childFields) is taken to hold no file:
// no write or read through it is reported, by the direct check (a field
// of type *os.File) or across calls. A field only handed to a child is
// not enough: a command run once after the records (gotestsum's
// post-run hook, given its output) does not interleave with them.
//
// A value reaches a child when it is given to exec.Cmd's Stdin, Stdout,
// Stderr or ExtraFiles, or to the Files of os.ProcAttr or
// syscall.ProcAttr (a file's Fd for the latter), by an assignment or in
// a composite literal; or when it is stored in a variable, field or
// parameter of the package whose value does (`hc := HandlerContext{Stdout:
// r.stdout}` and, elsewhere, `cmd.Stdout = hc.Stdout` give r.stdout to
// the child), a parameter through every call of its function. A field
// of another package is left alone: a command that gives its embedded
// base's Stdout to the processes it starts says nothing of the other
// commands over the same base.

// childStreams are, by package path, the fields through which a value
// becomes a child process's file: exec.Cmd's, and os's and syscall's
// ProcAttr's (no other struct of these packages has a field of these
// names, so an embedding struct's are found too).
var childStreams = map[string]map[string]bool{
	"os/exec": {"Stdin": true, "Stdout": true, "Stderr": true, "ExtraFiles": true},
	"os":      {"Files": true},
	"syscall": {"Files": true},
}

// isChildStream reports whether f is one of childStreams.
func isChildStream(f *types.Var) bool {
	return f != nil && f.IsField() && f.Pkg() != nil && childStreams[f.Pkg().Path()][f.Name()]
}

// collectHandoff records the values an assignment or a composite literal
// gives a child process's file.
func (fl *flow) collectHandoff(n ast.Node) {
	info := fl.c.pass.TypesInfo
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) != len(n.Rhs) {
			return
		}
		for i, lhs := range n.Lhs {
			sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			s := info.Selections[sel]
			if s == nil || s.Kind() != types.FieldVal {
				continue
			}
			if f, ok := s.Obj().(*types.Var); ok && isChildStream(f) {
				fl.handoffs = append(fl.handoffs, n.Rhs[i])
			}
		}
	case *ast.CompositeLit:
		fl.eachField(n, func(f *types.Var, v ast.Expr) {
			if isChildStream(f) {
				fl.handoffs = append(fl.handoffs, v)
			}
		})
	}
}

// markChildFields finds the package's fields whose value reaches a child
// process, from each value handed to one back through the variables,
// fields and parameters it was stored in or given as, and keeps those
// that a function saves and restores.
func (fl *flow) markChildFields() {
	if len(fl.handoffs) == 0 {
		return
	}
	info := fl.c.pass.TypesInfo
	fl.childFields = map[*types.Var]bool{}
	seen := map[*types.Var]bool{}
	var calls map[*types.Func][]*ast.CallExpr // made when a parameter is first met
	var mark func(e ast.Expr, depth int)
	mark = func(e ast.Expr, depth int) {
		if e == nil || depth > 16 {
			return
		}
		switch e := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s := info.Selections[e]
			if s == nil {
				if v, ok := info.Uses[e.Sel].(*types.Var); ok && v.Pkg() == fl.c.pass.Pkg {
					mark(e.Sel, depth) // a package-level variable, qualified
				}
				return
			}
			f, ok := s.Obj().(*types.Var)
			if s.Kind() != types.FieldVal || !ok || f.Pkg() != fl.c.pass.Pkg || fl.childFields[f] {
				return
			}
			fl.childFields[f] = true
			for _, v := range fl.fields[f] {
				mark(v, depth+1)
			}
		case *ast.Ident:
			v, ok := info.ObjectOf(e).(*types.Var)
			if !ok || v.IsField() || v.Pkg() != fl.c.pass.Pkg || seen[v] {
				return
			}
			seen[v] = true
			for _, a := range fl.assigns[v] {
				if a.path == "" && a.index == 0 {
					mark(a.value, depth+1)
				}
			}
			fn, i, ok := fl.paramOf(v)
			if !ok {
				return
			}
			if calls == nil {
				calls = map[*types.Func][]*ast.CallExpr{}
				for _, s := range fl.sites {
					if callee, ok := typeutil.Callee(info, s.call).(*types.Func); ok && callee.Pkg() == fl.c.pass.Pkg {
						calls[callee] = append(calls[callee], s.call)
					}
				}
			}
			sig := fn.Type().(*types.Signature)
			for _, call := range calls[fn] {
				mark(callArg(call, sig, i), depth+1)
			}
		case *ast.CompositeLit:
			// []*os.File{r.stdin, r.stdout} in ExtraFiles or Files.
			if _, ok := info.TypeOf(e).Underlying().(*types.Struct); ok {
				return
			}
			for _, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				mark(elt, depth+1)
			}
		case *ast.CallExpr:
			if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
				mark(e.Args[0], depth+1) // a conversion
				return
			}
			if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "append" && info.Uses[id] == types.Universe.Lookup("append") {
				for _, a := range e.Args {
					mark(a, depth+1)
				}
				return
			}
			if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Fd" && isOSFile(info.TypeOf(sel.X)) {
				mark(sel.X, depth+1) // syscall.ProcAttr's Files hold descriptors
			}
		case *ast.UnaryExpr:
			if e.Op == token.AND {
				mark(e.X, depth+1)
			}
		case *ast.StarExpr:
			mark(e.X, depth+1)
		case *ast.TypeAssertExpr:
			mark(e.X, depth+1)
		}
	}
	for _, e := range fl.handoffs {
		mark(e, 0)
	}
	for f := range fl.childFields {
		if !fl.restored(f) {
			delete(fl.childFields, f)
		}
	}
}

// restored reports whether some function of the package saves field f
// in a local variable and later puts it back (`old := r.stdout ...
// r.stdout = old`): the field is bound to a file for a span of
// statements, as a redirection binds it.
func (fl *flow) restored(f *types.Var) bool {
	info := fl.c.pass.TypesInfo
	for _, v := range fl.fields[f] {
		id, ok := ast.Unparen(v).(*ast.Ident)
		if !ok {
			continue
		}
		local, ok := info.Uses[id].(*types.Var)
		if !ok || local.Parent() == nil || local.Parent() == local.Pkg().Scope() {
			continue
		}
		for _, a := range fl.assigns[local] {
			sel, ok := ast.Unparen(a.value).(*ast.SelectorExpr)
			if !ok || a.path != "" || a.index != 0 {
				continue
			}
			if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && s.Obj() == f {
				return true
			}
		}
	}
	return false
}

// childField reports whether e reads a field of the package whose value
// reaches a child process.
func (c *checker) childField(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	f, ok := s.Obj().(*types.Var)
	return ok && c.childFields[f]
}
