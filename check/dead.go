package check

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A boolean that the program never sets to true guards dead code as a
// false constant does: `if p.debug { fmt.Printf(...) }` where every
// constructor sets debug: false and the one setter is never called. Only
// what the package alone can set is taken: an unexported field or
// variable of the package, every value given to which is false (a
// constant, the zero value, or a parameter of a function that every call
// gives false and that nothing outside the package can call). Any other
// value (a flag, a non-constant expression, &x given away, a range
// variable) keeps it live.

// deadFlags returns the package's boolean fields and variables that are
// never set to true.
func (c *checker) deadFlags(ins *inspector.Inspector) map[types.Object]bool {
	info := c.pass.TypesInfo
	values := map[types.Object][]ast.Expr{} // nil for a value not known
	live := map[types.Object]bool{}
	calls := map[*types.Func][]*ast.CallExpr{}
	candidate := func(obj types.Object) bool {
		v, ok := obj.(*types.Var)
		if !ok || v.Pkg() != c.pass.Pkg || v.Exported() {
			return false
		}
		b, ok := v.Type().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Bool
	}
	target := func(e ast.Expr) types.Object {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(e)
		case *ast.SelectorExpr:
			return info.ObjectOf(e.Sel)
		}
		return nil
	}
	set := func(obj types.Object, value ast.Expr) {
		if candidate(obj) {
			values[obj] = append(values[obj], value)
		}
	}
	types_ := []ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CompositeLit)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil), (*ast.IncDecStmt)(nil)}
	ins.Preorder(types_, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				var value ast.Expr
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) {
					value = n.Rhs[i]
				}
				set(target(lhs), value)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				switch {
				case len(n.Values) == 0:
					set(info.Defs[id], falseExpr) // the zero value
				case len(n.Values) == len(n.Names):
					set(info.Defs[id], n.Values[i])
				default:
					set(info.Defs[id], nil)
				}
			}
		case *ast.CompositeLit:
			st, ok := typeOfLit(info, n)
			if !ok {
				return
			}
			for i, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						set(info.ObjectOf(id), kv.Value)
					}
				} else if i < st.NumFields() {
					set(st.Field(i), elt)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if obj := target(n.X); obj != nil {
					live[obj] = true // set through the pointer
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if obj := target(e); obj != nil {
					live[obj] = true
				}
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() == c.pass.Pkg {
				calls[fn] = append(calls[fn], n)
			}
		}
	})
	d := &deadness{c: c, values: values, live: live, calls: calls, params: c.declParams(), busy: map[types.Object]bool{}, closes: map[*types.Func]bool{}}
	dead := map[types.Object]bool{}
	for obj := range values {
		if d.neverTrue(obj) {
			dead[obj] = true
		}
	}
	return dead
}

// falseExpr stands for a variable's zero value.
var falseExpr = &ast.Ident{Name: "false"}

// typeOfLit returns the struct type a composite literal builds.
func typeOfLit(info *types.Info, lit *ast.CompositeLit) (*types.Struct, bool) {
	t := info.TypeOf(lit)
	if t == nil {
		return nil, false
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// paramOf is a parameter's function and index.
type paramOf struct {
	fn *types.Func
	i  int
}

// deadness decides which booleans are never true.
type deadness struct {
	c      *checker
	values map[types.Object][]ast.Expr
	live   map[types.Object]bool
	calls  map[*types.Func][]*ast.CallExpr
	params map[*types.Var]paramOf
	busy   map[types.Object]bool
	closes map[*types.Func]bool // closed's answers
}

// neverTrue reports whether every value given to obj is false. A cycle
// (a setter that passes its parameter on to another) is taken as false:
// nothing in it brings a true in.
func (d *deadness) neverTrue(obj types.Object) bool {
	if d.live[obj] {
		return false
	}
	if d.busy[obj] {
		return true
	}
	d.busy[obj] = true
	defer delete(d.busy, obj)
	for _, v := range d.values[obj] {
		if !d.falseValue(v) {
			return false
		}
	}
	return true
}

// falseValue reports whether e is false wherever it is evaluated: the
// constant false, or a parameter every call gives false of a function
// that only the package's own calls reach.
func (d *deadness) falseValue(e ast.Expr) bool {
	if e == nil {
		return false
	}
	if e == falseExpr {
		return true
	}
	info := d.c.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	p, ok := d.params[v]
	if !ok || p.variadic() {
		return false
	}
	if d.busy[v] {
		return true
	}
	if !d.closed(p.fn) {
		return false
	}
	d.busy[v] = true
	defer delete(d.busy, v)
	sig := p.fn.Type().(*types.Signature)
	for _, call := range d.calls[p.fn] {
		j := p.i
		if sig.Recv() != nil {
			j++ // callArg counts the receiver first
		}
		if !d.falseValue(callArg(call, sig, j)) {
			return false
		}
	}
	return true
}

// closed reports whether every call of fn is one of the package's calls
// it names: fn is not exported, is not used as a value, and is not a
// method another package could call through an interface or an
// embedding type.
func (d *deadness) closed(fn *types.Func) bool {
	if ok, done := d.closes[fn]; done {
		return ok
	}
	ok := d.isClosed(fn)
	d.closes[fn] = ok
	return ok
}

func (d *deadness) isClosed(fn *types.Func) bool {
	info := d.c.pass.TypesInfo
	uses := 0
	for _, obj := range info.Uses {
		if obj == fn {
			uses++
		}
	}
	if uses != len(d.calls[fn]) {
		return false // a func value, or a method value
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return !fn.Exported()
	}
	if !fn.Exported() {
		return true
	}
	named := namedOf(sig.Recv().Type())
	if named == nil || named.Obj().Exported() {
		return false
	}
	// An exported method of an unexported type: another package reaches it
	// through an interface that has it, or through an exported type that
	// embeds the type.
	pkgs := append([]*types.Package{d.c.pass.Pkg}, d.c.pass.Pkg.Imports()...)
	for _, p := range pkgs {
		scope := p.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			switch u := tn.Type().Underlying().(type) {
			case *types.Interface:
				for i := range u.NumMethods() {
					if u.Method(i).Name() == fn.Name() {
						return false
					}
				}
			case *types.Struct:
				if !tn.Exported() || p != d.c.pass.Pkg {
					continue
				}
				for i := range u.NumFields() {
					if f := u.Field(i); f.Embedded() && namedOf(f.Type()) == named {
						return false
					}
				}
			}
		}
	}
	return true
}
