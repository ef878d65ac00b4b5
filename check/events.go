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
// progress lines should appear before the slow step. Neither is
// reported.

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

// runsProcess reports whether the iteration of the loop at stack[i] that
// runs the call at the top of stack starts a process: a statement of the
// loop's body, or of a block between it and the call, that is not itself
// the body of a branch starts one (calls one of os/exec's, or a function
// of the package that starts one each time it runs). A process started
// only in another branch (goimports' diff under -d) leaves the
// iteration's writes per record.
func (c *checker) runsProcess(stack []ast.Node, i int) bool {
	if c.procFuncs == nil {
		c.procFuncs = c.processFuncs()
	}
	return iterationHas(stack, i, &c.procStmts, func(st ast.Stmt) bool {
		return c.startsShallow(st, func(fn *types.Func) bool { return startsProcess(fn) || c.procFuncs[fn] })
	})
}

// iterationHas reports whether a statement that runs whenever the call at
// the top of stack does, in the iteration of the loop at stack[i] (one of
// the loop's body or of a block between it and the call, not itself the
// body of a branch), is one test holds for; memo keeps test's answer per
// statement, made when first needed.
func iterationHas(stack []ast.Node, i int, memo *map[ast.Stmt]bool, test func(ast.Stmt) bool) bool {
	for j := i + 1; j < len(stack); j++ {
		var list []ast.Stmt
		switch n := stack[j].(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		case *ast.FuncLit:
			return false
		}
		for _, st := range list {
			found, ok := (*memo)[st]
			if !ok {
				found = test(st)
				if *memo == nil {
					*memo = map[ast.Stmt]bool{}
				}
				(*memo)[st] = found
			}
			if found {
				return true
			}
		}
	}
	return false
}

// startsShallow reports whether st calls a function for which starts
// holds, outside the bodies of the blocks, branches and function
// literals it holds: a call that runs whenever st does.
func (c *checker) startsShallow(st ast.Stmt, starts func(*types.Func) bool) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func); ok && starts(fn) {
				found = true
			}
		}
		return !found
	})
	return found
}

// processFuncs returns the package's functions that start a process
// each time they run: a statement at the top level of the body starts
// one, or calls a function that does (a fixed point).
func (c *checker) processFuncs() map[*types.Func]bool {
	bodies := map[*types.Func]*ast.BlockStmt{}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				bodies[fn] = fd.Body
			}
		}
	}
	set := map[*types.Func]bool{}
	starts := func(fn *types.Func) bool { return startsProcess(fn) || set[fn] }
	for changed := true; changed; {
		changed = false
		for fn, body := range bodies {
			if set[fn] {
				continue
			}
			for _, st := range body.List {
				if c.startsShallow(st, starts) {
					set[fn], changed = true, true
					break
				}
			}
		}
	}
	return set
}
