package check

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// A loop over a list the source fixes runs a constant number of times,
// however large the input: the arguments of one call (a variadic
// parameter), a parameter every call gives such a list (a benchmark
// suite written as a composite literal at each call), a local slice
// made only from one (a sorted copy), or a local slice the program stops
// filling at a constant size (the first ten errors of a check). None of
// them is per record.

// fixedDepth bounds how far fixedList follows variables and parameters.
const fixedDepth = 4

// fixedList reports whether e is a list whose length the source fixes:
// a composite literal or nil; the variadic parameter of an unexported function
// that no call of the package gives a slice with ...; a parameter of a
// function only the package's own calls reach (deadness.closed), every
// call of which gives a fixed list; or a local variable every value of
// which is a fixed list, a make whose length is a constant or the len
// of a fixed list (copy fills it and does not grow it), or an append
// of single items that boundedAppend bounds.
func (c *checker) fixedList(e ast.Expr, depth int) bool {
	if depth > fixedDepth {
		return false
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		b, ok := c.pass.TypesInfo.Uses[identOf(e.Fun)].(*types.Builtin)
		if !ok || b.Name() != "make" || len(e.Args) < 2 {
			return false
		}
		if n, ok := c.intConst(e.Args[1]); ok {
			return n <= constLoopMax
		}
		if l, ok := ast.Unparen(e.Args[1]).(*ast.CallExpr); ok && len(l.Args) == 1 {
			if b, ok := c.pass.TypesInfo.Uses[identOf(l.Fun)].(*types.Builtin); ok && b.Name() == "len" {
				return c.fixedList(l.Args[0], depth+1)
			}
		}
		return false
	case *ast.Ident:
		if c.pass.TypesInfo.Types[e].IsNil() {
			return true
		}
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		if p, ok := c.declParams()[v]; ok {
			return c.fixedParam(p, depth)
		}
		a := c.assigns[v]
		if a == nil || !a.local || len(a.values) == 0 {
			return false
		}
		for _, val := range a.values {
			if val == nil || !(c.boundedAppend(val, v) || c.fixedList(val, depth+1)) {
				return false
			}
		}
		return true
	}
	return false
}

// fixedParam reports whether every call of p's function gives p a fixed
// list: the function is the package's own, and p is its variadic
// parameter given no slice with ..., or a parameter of a closed function
// given a fixed list by every call.
func (c *checker) fixedParam(p paramOf, depth int) bool {
	sig := p.fn.Type().(*types.Signature)
	variadic := sig.Variadic() && p.i == sig.Params().Len()-1
	if variadic && p.fn.Exported() {
		return false // another package may give it a slice
	}
	if !variadic && !c.deadness().closed(p.fn) {
		return false
	}
	for _, call := range c.deadness().calls[p.fn] {
		if variadic {
			if call.Ellipsis.IsValid() {
				return false
			}
			continue
		}
		j := p.i
		if sig.Recv() != nil {
			j++ // callArg counts the receiver first
		}
		if arg := callArg(call, sig, j); arg == nil || !c.fixedList(arg, depth+1) {
			return false
		}
	}
	return true
}

// declParams returns the function and index of each parameter of the
// package's function declarations (the receiver not counted), variadic
// ones included.
func (c *checker) declParams() map[*types.Var]paramOf {
	if c.params != nil {
		return c.params
	}
	c.params = map[*types.Var]paramOf{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			for i := range sig.Params().Len() {
				c.params[sig.Params().At(i)] = paramOf{fn, i}
			}
		}
	}
	return c.params
}

// deadness returns the package's calls and closed functions, made when
// first needed.
func (c *checker) deadness() *deadness {
	if c.closedFns != nil {
		return c.closedFns
	}
	calls := map[*types.Func][]*ast.CallExpr{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() == c.pass.Pkg {
					calls[fn] = append(calls[fn], call)
				}
			}
			return true
		})
	}
	c.closedFns = &deadness{c: c, calls: calls, closes: map[*types.Func]bool{}}
	return c.closedFns
}

// boundedAppend reports whether val is append(v, items...) of single
// items, made outside any loop of its function or in a loop whose body
// leaves it once v is longer than a constant of at most constLoopMax
// (if len(errs) > 10 { break }).
func (c *checker) boundedAppend(val ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(val).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return false
	}
	if b, ok := c.pass.TypesInfo.Uses[identOf(call.Fun)].(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	if id := identOf(call.Args[0]); id == nil || c.pass.TypesInfo.Uses[id] != v {
		return false
	}
	var file *ast.File
	for _, f := range c.pass.Files {
		if f.Pos() <= call.Pos() && call.End() <= f.End() {
			file = f
		}
	}
	if file == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return true
		case *ast.ForStmt:
			return c.stopsAt(n.Body, v)
		case *ast.RangeStmt:
			return c.stopsAt(n.Body, v)
		}
	}
	return false
}

// stopsAt reports whether body has, at its top level, an if that leaves
// the loop by break once len(v) passes a constant of at most
// constLoopMax.
func (c *checker) stopsAt(body *ast.BlockStmt, v *types.Var) bool {
	for _, st := range body.List {
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || len(is.Body.List) == 0 {
			continue
		}
		br, ok := is.Body.List[len(is.Body.List)-1].(*ast.BranchStmt)
		if !ok || br.Tok != token.BREAK || br.Label != nil {
			continue
		}
		cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok {
			continue
		}
		l, k := cond.X, cond.Y
		switch cond.Op {
		case token.GTR, token.GEQ:
		case token.LSS, token.LEQ:
			l, k = k, l
		default:
			continue
		}
		n, ok := c.intConst(k)
		if !ok || n > constLoopMax {
			continue
		}
		lc, ok := ast.Unparen(l).(*ast.CallExpr)
		if !ok || len(lc.Args) != 1 {
			continue
		}
		if b, ok := c.pass.TypesInfo.Uses[identOf(lc.Fun)].(*types.Builtin); !ok || b.Name() != "len" {
			continue
		}
		if id := identOf(lc.Args[0]); id != nil && c.pass.TypesInfo.Uses[id] == v {
			return true
		}
	}
	return false
}

// variadic reports whether p is its function's variadic parameter.
func (p paramOf) variadic() bool {
	sig := p.fn.Type().(*types.Signature)
	return sig.Variadic() && p.i == sig.Params().Len()-1
}
