package check

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A library's loop may call a method of an interface its caller
// implements: testjson.ScanTestOutput calls config.Handler.Event once per
// event read, and the command that calls it passes its own handler, whose
// Event writes to standard output. The library cannot see that
// implementation (facts go from a package to those that import it), so
// its summary says which method it calls on which parameter (a Sink with
// Method set), per record or once per call; a caller that passes its own
// parameter there gets the same sink. A package that calls the function
// follows the sink to the methods of its own types (and its imports' that
// the callee's package does not see) that implement the interface: a
// method that writes through a field of its receiver writes to what the
// argument holds at that field, per record where the library's loop is.

// methodSinks adds to fn's summary the interface methods s calls on fn's
// parameters: a call of an exported method of a parameter's interface
// value, or a callee's method sink given one of fn's parameters.
func (fl *flow) methodSinks(fn *types.Func, s *site) {
	callee, ok := fl.calleeFunc(s.call)
	if !ok {
		return
	}
	sig := callee.Type().(*types.Signature)
	if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		if !callee.Exported() || !implementable(namedOf(sig.Recv().Type())) || writeMethods[callee.Name()] {
			return
		}
		recv := callArg(s.call, sig, 0)
		for _, o := range fl.originsOf(recv) {
			if o.t.param >= 0 && !o.call && o.path == "" {
				fl.addSink(fn, Sink{Param: o.t.param, Path: o.t.ppath, Method: callee.Name(), Loop: s.loop != nil})
			}
		}
		return
	}
	sum := fl.summary(callee)
	if sum == nil {
		return
	}
	for _, sk := range sum.Sinks {
		if sk.Method == "" || sk.Param < 0 {
			continue
		}
		x := callArg(s.call, sig, sk.Param)
		if x == nil {
			continue
		}
		for _, o := range fl.originsOf(x) {
			if o.call || o.t.param < 0 {
				continue
			}
			if rest, ok := cutPath(sk.Path, o.path); ok {
				fl.addSink(fn, Sink{Param: o.t.param, Path: joinPath(o.t.ppath, rest), Method: sk.Method, Loop: sk.Loop || s.loop != nil})
			}
		}
	}
}

// calleeFunc returns the declared function or method call calls.
func (fl *flow) calleeFunc(call *ast.CallExpr) (*types.Func, bool) {
	fn, ok := typeutil.Callee(fl.c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil, false
	}
	return fn, true
}

// implementable reports whether another package's types may implement
// iface: an interface declared outside the standard library (its
// implementations there, a Stringer or a Reader, do not write files).
func implementable(iface *types.Named) bool {
	return iface != nil && iface.Obj().Pkg() != nil && !stdlibPath(iface.Obj().Pkg().Path())
}

// stdlibPath reports whether path looks like a standard library package's:
// no dot in its first element.
func stdlibPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// methodThroughs returns the writers a call of fn, whose summary has the
// method sink sk, writes through: the receiver sinks of the methods that
// implement sk's interface method among the types of this package and of
// its imports that fn's package does not see.
func (fl *flow) methodThroughs(call *ast.CallExpr, fn *types.Func, sk Sink) []through {
	sig := fn.Type().(*types.Signature)
	x := callArg(call, sig, sk.Param)
	if x == nil {
		return nil
	}
	iface := namedOf(fieldType(paramType(sig, sk.Param), fn.Pkg(), sk.Path))
	if iface == nil || !types.IsInterface(iface) {
		return nil
	}
	seen := map[*types.Package]bool{fn.Pkg(): true}
	for _, p := range fn.Pkg().Imports() {
		seen[p] = true
	}
	step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn), Arg: paramName(sig, sk.Param) + dotPath(sk.Path)}
	var ths []through
	for _, m := range fl.implsOf(iface, sk.Method) {
		if seen[m.Pkg()] {
			continue // followed by fn's package
		}
		sum := fl.summary(m)
		if sum == nil {
			continue
		}
		msig := m.Type().(*types.Signature)
		for _, mk := range sum.Sinks {
			if mk.Param != 0 || mk.Method != "" {
				// Its other parameters hold what fn's package gives
				// them; a file of its own the call may never reach.
				continue
			}
			mstep := &Step{Pkg: m.Pkg().Name(), Func: funcName(m), Arg: paramName(msig, 0) + dotPath(mk.Path)}
			ths = append(ths, through{x: x, path: joinPath(sk.Path, mk.Path), call: mk.Call, loop: sk.Loop || mk.Loop, trail: withStep(mstep, mk.Trail), step: step})
		}
	}
	return ths
}

// paramType returns the type of sig's parameter i, the receiver first.
func paramType(sig *types.Signature, i int) types.Type {
	if sig.Recv() != nil {
		if i == 0 {
			return sig.Recv().Type()
		}
		i--
	}
	if i >= 0 && i < sig.Params().Len() {
		return sig.Params().At(i).Type()
	}
	return nil
}

// fieldType returns the type of the field path names in a value of type
// t, as package pkg sees it.
func fieldType(t types.Type, pkg *types.Package, path string) types.Type {
	if path == "" || t == nil {
		return t
	}
	for _, name := range strings.Split(path, ".") {
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
		f, ok := obj.(*types.Var)
		if !ok {
			return nil
		}
		t = f.Type()
	}
	return t
}

// funcTypeThroughs returns the func value a call of the interface method
// fn calls when the value is of a func type of another package: a type
// another package declares unexported (testjson's eventFormatterFunc,
// whose Format calls the func) is not among those implsOf finds there,
// as export data holds only what the package's API names, but the value
// is known to be a func value that writes when called (its origin is
// one, returned by a constructor of that package), and a func type's
// method calls the func.
func (fl *flow) funcTypeThroughs(call *ast.CallExpr, fn *types.Func, iface *types.Named) []through {
	if iface.Obj().Pkg() == fl.c.pass.Pkg || !implementable(iface) {
		return nil
	}
	recv := callArg(call, fn.Type().(*types.Signature), 0)
	if recv == nil {
		return nil
	}
	step := &Step{Pkg: iface.Obj().Pkg().Name(), Func: funcName(fn), Arg: "func value"}
	return []through{{x: recv, call: true, step: step}}
}

// isConversion reports whether call converts a value to a type: a
// function literal converted to a func type (formatterFunc(func...)) is
// a value, not a callback the call runs.
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType()
}

// variadicThroughs returns the callbacks a call of fn passes among
// variadic options of an empty interface type, where fn calls a func
// value it holds per record: ojg's p.ParseReader(os.Stdin, write) takes
// write among its ...any options, stores it (wrapped in a closure of a
// type switch's case) and calls it per document parsed. Where the func
// value ends up is not followed; that fn calls one per record, and
// that the options are of no type but any, says it is the callback.
func (fl *flow) variadicThroughs(call *ast.CallExpr, fn *types.Func, sum *funcFact) []through {
	sig := fn.Type().(*types.Signature)
	n := sig.Params().Len()
	if !sig.Variadic() || call.Ellipsis.IsValid() || len(call.Args) < n {
		return nil
	}
	sl, ok := sig.Params().At(n - 1).Type().(*types.Slice)
	if !ok {
		return nil
	}
	if it, ok := sl.Elem().Underlying().(*types.Interface); !ok || it.NumMethods() > 0 {
		return nil
	}
	callsPerRecord := false
	for _, sk := range sum.Sinks {
		callsPerRecord = callsPerRecord || (sk.Call && sk.Loop && sk.Param >= 0)
	}
	if !callsPerRecord {
		return nil
	}
	var ths []through
	name := sig.Params().At(n - 1).Name()
	for _, a := range call.Args[n-1:] {
		if _, ok := fl.c.pass.TypesInfo.TypeOf(a).Underlying().(*types.Signature); !ok {
			continue
		}
		step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn), Arg: name}
		ths = append(ths, through{x: a, call: true, loop: true, step: step})
	}
	return ths
}
