package check

import (
	"go/ast"
	"go/types"
)

// A call of an interface method (f.Format(...) where f is a formatter,
// t.renderer.Row(...)) runs the method of whatever concrete type the
// value has. The check follows it to the methods of the program's own
// types that implement the interface, those of the call's package and of
// the packages it imports: a method that writes through its receiver's
// field W writes to the file where the value the call is made on holds
// one in W (textFormatter{W: os.Stdout}), and one that writes through a
// parameter writes to the file the call passes. A method that writes a
// file of its own whatever its receiver holds is not taken: the call may
// never reach that type.

// maxImpls bounds the types an interface method call is followed to: an
// interface that many types implement (a visitor, a node of a syntax
// tree) says little about which one a call reaches, and following them
// all would make every such call cost as much as the package's types.
const maxImpls = 16

// implsOf returns the methods named name of the types of the package and
// of its imports that implement iface, at most maxImpls of them, in the
// packages' order and then by type name.
func (fl *flow) implsOf(iface *types.Named, name string) []*types.Func {
	type key struct {
		iface *types.Named
		name  string
	}
	if fl.impls == nil {
		fl.impls = map[any][]*types.Func{}
	}
	k := key{iface, name}
	if ms, ok := fl.impls[k]; ok {
		return ms
	}
	it, ok := iface.Underlying().(*types.Interface)
	var ms []*types.Func
	if ok && iface.Obj().Pkg() != nil && it.NumMethods() > 0 {
		pkgs := append([]*types.Package{fl.c.pass.Pkg}, fl.c.pass.Pkg.Imports()...)
	search:
		for _, p := range pkgs {
			scope := p.Scope()
			names := scope.Names() // sorted
			for _, n := range names {
				tn, ok := scope.Lookup(n).(*types.TypeName)
				if !ok || tn.IsAlias() {
					continue
				}
				named, ok := tn.Type().(*types.Named)
				if !ok || types.IsInterface(named) || named.TypeParams().Len() > 0 {
					continue
				}
				ptr := types.NewPointer(named)
				if !types.Implements(named, it) && !types.Implements(ptr, it) {
					continue
				}
				obj, _, _ := types.LookupFieldOrMethod(ptr, false, iface.Obj().Pkg(), name)
				m, ok := obj.(*types.Func)
				if !ok {
					continue
				}
				if len(ms) == maxImpls {
					break search
				}
				ms = append(ms, m)
			}
		}
	}
	fl.impls[k] = ms
	return ms
}

// dispatchThroughs returns the writers a call of the interface method fn
// writes through, by the summaries of the methods that implement it.
func (fl *flow) dispatchThroughs(call *ast.CallExpr, fn *types.Func) []through {
	sig := fn.Type().(*types.Signature)
	iface := namedOf(sig.Recv().Type())
	if iface == nil || !types.IsInterface(iface) {
		return nil
	}
	ths := fl.funcTypeThroughs(call, fn, iface)
	for _, m := range fl.implsOf(iface, fn.Name()) {
		sum := fl.summary(m)
		if sum == nil {
			continue
		}
		ths = append(ths, fl.variadicThroughs(call, m, sum)...)
		msig := m.Type().(*types.Signature)
		for _, sk := range sum.Sinks {
			if sk.Param < 0 || sk.Method != "" {
				// A file of its own: the call may never reach this type.
				// A method it calls on a field: followed where the
				// method's own package calls it.
				continue
			}
			x := callArg(call, sig, sk.Param)
			if x == nil {
				continue
			}
			step := &Step{Pkg: m.Pkg().Name(), Func: funcName(m), Arg: paramName(msig, sk.Param) + dotPath(sk.Path)}
			// No field: where the value's origins are not known (a range
			// over a slice of formatters), a field that some value of the
			// type holds a file in says nothing of this one.
			ths = append(ths, through{x: x, path: sk.Path, call: sk.Call, loop: sk.Loop, trail: sk.Trail, step: step})
		}
	}
	return ths
}
