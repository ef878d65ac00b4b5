package check

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Two kinds of loop run per event, not per record, though their count
// grows: a loop that waits in a select on several channels (a watcher's
// key presses, file-system events and timers: each iteration is whatever
// happens first), and a loop that starts a process per iteration (runs
// go test for each file), beside which a write costs nothing and
// progress lines should appear before the slow step. Neither is reported.

// eventLoop reports whether loop's body has, at its top level, a select
// that receives from two channels or more other than a context's Done.
func (c *checker) eventLoop(loop *ast.ForStmt) bool {
	for _, st := range loop.Body.List {
		sel, ok := st.(*ast.SelectStmt)
		if !ok {
			continue
		}
		n := 0
		for _, cl := range sel.Body.List {
			cc, ok := cl.(*ast.CommClause)
			if !ok || cc.Comm == nil {
				continue
			}
			if recv := c.received(cc.Comm); recv != nil && !isDoneCall(recv) {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// received returns the channel a select case receives from, or nil for a
// send.
func (c *checker) received(comm ast.Stmt) ast.Expr {
	var e ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// isDoneCall reports whether e is a call of a method Done: ctx.Done(),
// the end of the run rather than an event.
func isDoneCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done"
}

// startsProcess reports whether fn starts a process and waits for it or
// lets it run: os/exec's Cmd.Run, Output, CombinedOutput and Start.
func startsProcess(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "os/exec" {
		return false
	}
	switch fn.Name() {
	case "Run", "Output", "CombinedOutput", "Start":
		return fn.Type().(*types.Signature).Recv() != nil
	}
	return false
}

// runsProcess reports whether body starts a process each time it runs:
// it calls one of os/exec's, or a function of the package that does,
// directly or through others.
func (c *checker) runsProcess(body *ast.BlockStmt) bool {
	if c.procFuncs == nil {
		c.procFuncs = c.processFuncs()
		c.procBodies = map[*ast.BlockStmt]bool{}
	}
	if found, ok := c.procBodies[body]; ok {
		return found
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); ok && (startsProcess(fn) || c.procFuncs[fn]) {
				found = true
			}
		}
		return !found
	})
	c.procBodies[body] = found
	return found
}

// processFuncs returns the package's functions that start a process on
// every call that runs their body through, by a fixed point over their
// calls.
func (c *checker) processFuncs() map[*types.Func]bool {
	callees := map[*types.Func][]*types.Func{}
	set := map[*types.Func]bool{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
				switch {
				case !ok:
				case startsProcess(callee):
					set[fn] = true
				case callee.Pkg() == c.pass.Pkg:
					callees[fn] = append(callees[fn], callee)
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, cs := range callees {
			if set[fn] {
				continue
			}
			for _, callee := range cs {
				if set[callee] {
					set[fn], changed = true, true
					break
				}
			}
		}
	}
	return set
}
