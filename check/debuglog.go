package check

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"
)

// A logger's debug and trace output is off unless the user asks for it
// (tablewriter's renderers log each column of a separator line through
// olekukonko/ll's Debugf, whose logger is disabled unless -debug), and
// when on it is diagnostics, as standard error is: what a call of a
// function or method named Debug or Trace (Debugf, Tracef, Debugw...)
// writes is not followed.

// debugLog reports whether call calls a function or method named Debug
// or Trace, or one of those followed by a capitalised suffix.
func (c *checker) debugLog(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return false
	}
	name := fn.Name()
	for _, p := range []string{"Debug", "Trace"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || unicode.IsUpper(rune(rest[0]))) {
			return true
		}
	}
	return false
}
