package check

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A method may store a writer it is given in its receiver: tablewriter's
// renderers keep the writer Start(w) gives them (f.w = w), and their Row
// methods, called later on the same value, write to it. A function's
// summary says what it stores (a Flow in Stores, whose Result is the
// parameter stored into, the receiver 0 for a method, and RPath the
// field), and a variable given to such a call holds, after it, what the
// call stored in it: ctx.renderer.Start(t.writer) gives ctx's field
// renderer.w what t.writer holds. A caller that passes its own
// parameters gets a store of its own (Table.Start stores t.writer in
// t.renderer.w). The store is followed through an interface method as
// a write is (dispatch.go).
//
// A method taken as a value (t.renderRow in a slice of render functions
// ranged over and called) is followed as a call of the method on the
// value it was taken from, with the call's arguments; so is a declared
// function taken as one.

// storeSite is a call given a variable, or a field of one: the call may
// store in it.
type storeSite struct {
	call  *ast.CallExpr
	param int    // the callee's parameter the variable is given as, the receiver first
	path  string // the field path of the variable given
}

// collectStoreSites records, for each variable given to a call (as its
// receiver or an argument, whole or a field of it), the call.
func (fl *flow) collectStoreSite(call *ast.CallExpr) {
	info := fl.c.pass.TypesInfo
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return
	}
	sig := fn.Type().(*types.Signature)
	n := sig.Params().Len()
	if sig.Recv() != nil {
		n++
	}
	for i := range n {
		x := callArg(call, sig, i)
		if x == nil {
			continue
		}
		v, path := fl.rootVar(x)
		if v == nil {
			continue
		}
		if fl.stores == nil {
			fl.stores = map[*types.Var][]storeSite{}
		}
		fl.stores[v] = append(fl.stores[v], storeSite{call: call, param: i, path: path})
	}
}

// rootVar returns the variable x names, or whose field it names, and the
// field path: ctx.renderer gives ctx and "renderer".
func (fl *flow) rootVar(x ast.Expr) (*types.Var, string) {
	info := fl.c.pass.TypesInfo
	var path []string
	e := ast.Unparen(x)
	for {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
			continue
		}
		if st, ok := e.(*ast.StarExpr); ok {
			e = ast.Unparen(st.X)
			continue
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			break
		}
		f, ok := info.ObjectOf(sel.Sel).(*types.Var)
		if !ok || !f.IsField() {
			return nil, ""
		}
		path = append([]string{f.Name()}, path...)
		e = ast.Unparen(sel.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, ""
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() != fl.c.pass.Pkg {
		return nil, ""
	}
	if len(path) > maxPathFields {
		return nil, ""
	}
	return v, strings.Join(path, ".")
}

// calleeStores returns what call may store, with the callee whose
// parameters they name: its summary's stores, or those of the methods
// that implement the interface method it calls.
func (fl *flow) calleeStores(call *ast.CallExpr) []Flow {
	info := fl.c.pass.TypesInfo
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		iface := namedOf(sig.Recv().Type())
		if iface == nil {
			return nil
		}
		var out []Flow
		for _, m := range fl.implsOf(iface, fn.Name()) {
			if sum := fl.summary(m); sum != nil {
				out = append(out, sum.Stores...)
			}
		}
		return out
	}
	if sum := fl.summary(fn); sum != nil {
		return sum.Stores
	}
	return nil
}

// storedOrigins returns what the calls given v store in it, as origins
// of v.
func (fl *flow) storedOrigins(v *types.Var) []origin {
	var os []origin
	for _, ss := range fl.stores[v] {
		stores := fl.calleeStores(ss.call)
		if len(stores) == 0 {
			continue
		}
		fn, _ := typeutil.Callee(fl.c.pass.TypesInfo, ss.call).(*types.Func)
		sig := fn.Type().(*types.Signature)
		for _, st := range stores {
			if st.Result != ss.param {
				continue
			}
			for _, o := range fl.storedValue(ss.call, sig, st) {
				o.path = joinPath(ss.path, joinPath(st.RPath, o.path))
				os = append(os, o)
			}
		}
	}
	return os
}

// storedValue returns the origins of what store st of a call stores: its
// file, or what the argument it names holds at its path.
func (fl *flow) storedValue(call *ast.CallExpr, sig *types.Signature, st Flow) []origin {
	if st.Param < 0 {
		return []origin{{t: target{param: -1, file: st.File, stdout: st.Stdout}}}
	}
	x := callArg(call, sig, st.Param)
	if x == nil {
		return nil
	}
	var out []origin
	for _, o := range fl.originsOf(x) {
		if o.t.param >= 0 && !o.call && o.path == "" {
			o.t.ppath = joinPath(o.t.ppath, st.PPath)
			out = append(out, o)
			continue
		}
		if rest, ok := cutPath(o.path, st.PPath); ok {
			o.path = rest
			out = append(out, o)
		}
	}
	return out
}

// summarizeStores adds to the summaries what each function stores in its
// parameters: a value assigned to a parameter's field (f.w = w), and
// what a call given a parameter stores in it.
func (fl *flow) summarizeStores() {
	for v, as := range fl.assigns {
		fn, i, ok := fl.paramOf(v)
		if !ok {
			continue
		}
		for _, a := range as {
			if a.path == "" || a.value == nil || a.index != 0 || a.lit || !fl.mayHoldWriter(a.value) {
				continue
			}
			for _, o := range fl.originsOf(a.value) {
				fl.addStore(fn, i, joinPath(a.path, o.path), o)
			}
		}
	}
	for v, sites := range fl.stores {
		fn, i, ok := fl.paramOf(v)
		if !ok {
			continue
		}
		for _, ss := range sites {
			stores := fl.calleeStores(ss.call)
			if len(stores) == 0 {
				continue
			}
			callee, _ := typeutil.Callee(fl.c.pass.TypesInfo, ss.call).(*types.Func)
			sig := callee.Type().(*types.Signature)
			for _, st := range stores {
				if st.Result != ss.param || (st.Param >= 0 && !fl.mayHoldWriter(callArg(ss.call, sig, st.Param))) {
					continue
				}
				for _, o := range fl.storedValue(ss.call, sig, st) {
					fl.addStore(fn, i, joinPath(ss.path, joinPath(st.RPath, o.path)), o)
				}
			}
		}
	}
}

// addStore adds to fn's summary that it stores what o holds in its
// parameter i at path: a parameter's value or a file.
func (fl *flow) addStore(fn *types.Func, i int, path string, o origin) {
	if o.call || path == "" || path == deepPath || (o.t.param < 0 && o.t.read) {
		return
	}
	if o.t.param == i && o.t.ppath == path {
		return
	}
	st := Flow{Result: i, RPath: path, Param: o.t.param, PPath: o.t.ppath, File: o.t.file, Stdout: o.t.stdout}
	if o.t.param < 0 {
		st.PPath = ""
	}
	f := fl.own(fn)
	for _, old := range f.Stores {
		if old.Result == st.Result && old.RPath == st.RPath && old.Param == st.Param && old.PPath == st.PPath && old.File == st.File {
			return
		}
	}
	f.Stores = append(f.Stores, st)
	fl.changed = true
}

// paramOf returns v's function and its index there, the receiver 0,
// where v is a parameter of one of the package's function declarations.
func (fl *flow) paramOf(v *types.Var) (*types.Func, int, bool) {
	i, ok := fl.params[v]
	return fl.paramFunc[v], i, ok
}

// valueThroughs returns the writers a call of a func value writes
// through where the value is a method taken from a value (t.renderRow)
// or a declared function, given it in a variable, a slice of them ranged
// over, or directly: the callee's summary, its receiver the value the
// method was taken from.
func (fl *flow) valueThroughs(call *ast.CallExpr, x ast.Expr) []through {
	var ths []through
	for _, c := range fl.funcCandidates(x, 0) {
		sig := c.fn.Type().(*types.Signature)
		sum := fl.summary(c.fn)
		if sum == nil {
			continue
		}
		arg := func(i int) ast.Expr {
			if sig.Recv() != nil {
				if i == 0 {
					return c.recv
				}
				i--
			}
			if i >= 0 && i < len(call.Args) && !(sig.Variadic() && i >= sig.Params().Len()-1) {
				return call.Args[i]
			}
			return nil
		}
		step := func(sk Sink) *Step {
			return &Step{Pkg: c.fn.Pkg().Name(), Func: funcName(c.fn), Arg: paramName(sig, sk.Param) + dotPath(sk.Path)}
		}
		for _, sk := range sum.Sinks {
			if sk.Param < 0 || sk.Method != "" {
				continue // a file of its own: funcOrigins
			}
			a := arg(sk.Param)
			if a == nil {
				continue
			}
			ths = append(ths, through{x: a, path: sk.Path, call: sk.Call, loop: sk.Loop, trail: sk.Trail, step: step(sk)})
		}
	}
	return ths
}

// funcCand is a declared function a func value may be, with the value
// a method was taken from.
type funcCand struct {
	fn   *types.Func
	recv ast.Expr
}

// funcCandidates returns the declared functions and methods e may hold:
// a method value, a function named, a variable given one, a slice or
// array literal of them, or a range over one.
func (fl *flow) funcCandidates(e ast.Expr, depth int) []funcCand {
	if depth > 3 || e == nil {
		return nil
	}
	info := fl.c.pass.TypesInfo
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() == types.MethodVal {
				if fn, ok := sel.Obj().(*types.Func); ok && !types.IsInterface(sel.Recv()) {
					return []funcCand{{fn: fn, recv: e.X}}
				}
			}
			return nil
		}
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok {
			return []funcCand{{fn: fn}}
		}
	case *ast.Ident:
		if fn, ok := info.Uses[e].(*types.Func); ok {
			return []funcCand{{fn: fn}}
		}
		v, ok := info.Uses[e].(*types.Var)
		if !ok {
			return nil
		}
		var out []funcCand
		for _, a := range fl.assigns[v] {
			if a.path == "" && a.index == 0 {
				out = append(out, fl.funcCandidates(a.value, depth+1)...)
			}
		}
		if r, ok := fl.ranges[v]; ok {
			out = append(out, fl.funcCandidates(r, depth+1)...)
		}
		return out
	case *ast.CompositeLit:
		var out []funcCand
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			out = append(out, fl.funcCandidates(elt, depth+1)...)
		}
		return out
	}
	return nil
}

// collectRange records the range expression a range statement's value
// variable takes its elements from.
func (fl *flow) collectRange(n *ast.RangeStmt) {
	id, ok := n.Value.(*ast.Ident)
	if !ok || n.Tok != token.DEFINE {
		return
	}
	v, ok := fl.c.pass.TypesInfo.Defs[id].(*types.Var)
	if !ok {
		return
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return
	}
	if fl.ranges == nil {
		fl.ranges = map[*types.Var]ast.Expr{}
	}
	fl.ranges[v] = n.X
}

// setterStores returns os, the origins of result index of call, with
// what a setter stores in its receiver in place of what the receiver
// held there: a method that stores its argument in a field of its
// receiver and returns the receiver (ll.New("table").Handler(h)) gives a
// result whose field holds the argument, not the constructor's default.
func (fl *flow) setterStores(call *ast.CallExpr, fn *types.Func, sum *funcFact, index int, os []origin) []origin {
	sig := fn.Type().(*types.Signature)
	if index != 0 || sig.Recv() == nil || len(sum.Stores) == 0 {
		return os
	}
	returnsRecv := false
	for _, f := range sum.Flows {
		if f.Result == 0 && f.RPath == "" && f.Param == 0 && f.PPath == "" && !f.Call {
			returnsRecv = true
		}
	}
	if !returnsRecv {
		return os
	}
	for _, st := range sum.Stores {
		if st.Result != 0 {
			continue
		}
		os = slices.DeleteFunc(os, func(o origin) bool {
			_, under := cutPath(o.path, st.RPath)
			return under && o.path != ""
		})
		for _, o := range fl.storedValue(call, sig, st) {
			o.path = joinPath(st.RPath, o.path)
			os = append(os, o)
		}
	}
	return os
}

// mayHoldWriter reports whether x, stored, may hold a writer: a value of
// a type other than a boolean, number or string.
func (fl *flow) mayHoldWriter(x ast.Expr) bool {
	if x == nil {
		return false
	}
	t := fl.c.pass.TypesInfo.TypeOf(x)
	if t == nil {
		return false
	}
	_, basic := t.Underlying().(*types.Basic)
	return !basic
}
