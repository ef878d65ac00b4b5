package check

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// A loop that reads from a terminal each iteration runs per event: a
// line typed at a prompt, a key pressed. What it writes (the prompt, the
// answer to the line) must reach the terminal before the next read, so
// a buffer would have to be flushed every iteration anyway. Two reads
// are a terminal's: a call into a line editor (liner, readline, x/term's
// Terminal), or given one of its values; and a read of standard input
// in a package that puts the terminal in raw mode to read key presses.

// lineEditors are the import paths of line editors: packages that read a
// line typed at a terminal, echoing and editing it.
var lineEditors = []string{
	"github.com/peterh/liner",
	"github.com/chzyer/readline",
	"github.com/ergochat/readline",
	"github.com/reeflective/readline",
	"github.com/c-bata/go-prompt",
	"github.com/knz/go-libedit",
	"github.com/nyaosorg/go-readline-ny",
}

// isLineEditor reports whether pkg is a line editor's package (or one of
// its packages) other than the one checked.
func (c *checker) isLineEditor(pkg *types.Package) bool {
	if pkg == nil || pkg == c.pass.Pkg {
		return false
	}
	for _, p := range lineEditors {
		if pkg.Path() == p || strings.HasPrefix(pkg.Path(), p+"/") {
			return true
		}
	}
	return false
}

// readsTerminal reports whether the iteration of the loop at stack[i]
// that runs the call at the top of stack reads from a terminal: a
// statement that runs whenever the call does (iterationHas) calls a line editor, gives a call one of its values, or reads
// standard input in a package that makes the terminal raw.
func (c *checker) readsTerminal(stack []ast.Node, i int) bool {
	return iterationHas(stack, i, &c.termStmts, c.terminalStmt)
}

// terminalStmt reports whether st, outside the blocks and branches it
// holds, reads from a terminal.
func (c *checker) terminalStmt(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = c.terminalCall(n)
		}
		return !found
	})
	return found
}

// terminalCall reports whether call reads from a terminal: a function or
// method of a line editor (x/term's Terminal.ReadLine and ReadPassword
// among them), a call given a value of a line editor's type (a REPL's
// step given the editor), or a read of standard input in a package that
// makes the terminal raw.
func (c *checker) terminalCall(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn != nil {
		if c.isLineEditor(fn.Pkg()) {
			return true
		}
		if p := fn.Pkg(); p != nil && (p.Path() == "golang.org/x/term" || p.Path() == "golang.org/x/crypto/ssh/terminal") {
			if fn.Name() == "ReadLine" || fn.Name() == "ReadPassword" {
				return true
			}
		}
	}
	for _, a := range call.Args {
		if n := namedOf(c.pass.TypesInfo.TypeOf(a)); n != nil && c.isLineEditor(n.Obj().Pkg()) {
			return true
		}
	}
	if fn == nil || !c.makesRaw() {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Type().(*types.Signature).Recv() == nil || !strings.HasPrefix(fn.Name(), "Read") {
		return false
	}
	return c.overStdin(sel.X, 0)
}

// overStdin reports whether e is os.Stdin, a bufio.Reader or Scanner
// made over it, or a variable every value of which is one of those,
// leaving out the values test files give it (a test's stand-in for
// standard input).
func (c *checker) overStdin(e ast.Expr, depth int) bool {
	if e == nil || depth > 3 {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if v, ok := c.pass.TypesInfo.Uses[e.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "os" && v.Name() == "Stdin" {
			return true
		}
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(c.pass.TypesInfo, e).(*types.Func)
		if ok && fn.Pkg() != nil && fn.Pkg().Path() == "bufio" && strings.HasPrefix(fn.Name(), "New") && len(e.Args) > 0 {
			return c.overStdin(e.Args[0], depth+1)
		}
	case *ast.Ident:
		a := c.assigns[c.pass.TypesInfo.Uses[e]]
		if a == nil || len(a.values) == 0 {
			return false
		}
		for _, v := range a.values {
			if v != nil && c.skip[c.pass.Fset.File(v.Pos())] {
				continue // a test's stand-in for the program's input
			}
			if !c.overStdin(v, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// makesRaw reports whether the package puts a terminal in raw mode:
// it calls x/term's MakeRaw or x/sys/unix's IoctlSetTermios.
func (c *checker) makesRaw() bool {
	if c.raw != nil {
		return *c.raw
	}
	raw := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || raw {
				return !raw
			}
			fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil {
				return true
			}
			switch p := fn.Pkg().Path(); {
			case (p == "golang.org/x/term" || p == "golang.org/x/crypto/ssh/terminal") && fn.Name() == "MakeRaw",
				p == "golang.org/x/sys/unix" && fn.Name() == "IoctlSetTermios":
				raw = true
			}
			return !raw
		})
	}
	c.raw = &raw
	return raw
}
