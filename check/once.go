package check

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A function literal is a callback: a library calls it per event
// (gotestsum's formatters, each a func value its scan loop calls per
// test event), and a block of it that ends in a return still runs once
// per call, each event taking that branch (`return buf.Flush()` in a case
// of its switch). inErrorBranch counts such a block as leaving a loop
// that runs it once, as it does in a declared function (pflag's usage
// before `return a, ErrHelp`, whose caller's loop stops); in a function
// literal, outside its own loops, only a block that ends the program
// (os.Exit, log.Fatal, panic) or returns an error other than a call's
// result (err, ErrHelp, fmt.Errorf(...)) runs once.

// excludedOnce reports whether the call at the top of stack, in no loop
// of its function, is in an error branch, dead code or a block that runs
// once.
func (c *checker) excludedOnce(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].(*ast.FuncDecl); ok {
			return c.inErrorBranch(stack)
		}
		if _, ok := stack[i].(*ast.FuncLit); ok {
			break
		}
	}
	return c.inBranch(stack, func(list []ast.Stmt, _ []ast.Node) bool { return c.endsOnce(list) })
}

// endsProgram reports whether the function the call at the top of stack
// is in ends the program whenever it runs: its body ends in a call that
// does not return (os.Exit, log.Fatal, panic) and holds no return
// statement of its own. What a call in it, in no loop of its, writes
// once per call is written once per run, whoever calls the function:
// goyacc's exit flushes its outputs and calls os.Exit, and the loops
// that reach it through an error report reach it once. A loop inside
// the callee stays per record: main's `os.Exit(run())` runs run's loops.
func (c *checker) endsProgram(stack []ast.Node) bool {
	var body *ast.BlockStmt
	for i := len(stack) - 1; i >= 0 && body == nil; i-- {
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
	}
	if body == nil || len(body.List) == 0 {
		return false
	}
	last, ok := body.List[len(body.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	if call, ok := last.X.(*ast.CallExpr); !ok || c.mayReturn(call) {
		return false
	}
	returns := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns = true
		}
		return !returns
	})
	return !returns
}

// endsOnce reports whether list ends in a call that does not return
// (os.Exit, log.Fatal, panic) or in a return of an error.
func (c *checker) endsOnce(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ExprStmt:
		call, ok := last.X.(*ast.CallExpr)
		return ok && !c.mayReturn(call)
	case *ast.ReturnStmt:
		for _, r := range last.Results {
			if c.isErrorValue(r) {
				return true
			}
		}
	}
	return false
}

// isErrorValue reports whether e is an error other than nil that is not
// a call's result, or one that errors or fmt.Errorf makes: a variable
// (ErrHelp, err), errors.New(...), fmt.Errorf(...).
func (c *checker) isErrorValue(e ast.Expr) bool {
	info := c.pass.TypesInfo
	t := info.TypeOf(e)
	if t == nil || !types.Implements(t, errorIface) {
		return false
	}
	if tv, ok := info.Types[e]; ok && tv.IsNil() {
		return false
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return true
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	return fn.Pkg().Path() == "errors" || (fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf")
}

// errorIface is the interface error.
var errorIface = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// besideProcess reports whether the call at the top of stack, in no loop
// of its function, runs beside a process the function starts whenever
// the call runs: what it writes once per call costs nothing beside the
// process, as a loop that starts a process per iteration is per event
// (events.go; a write after goimports' diff under -d). A loop inside the
// callee stays per record.
func (c *checker) besideProcess(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return c.runsProcess(stack, i)
		}
	}
	return false
}
