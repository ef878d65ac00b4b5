package check

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"
)

// debugLog reports whether n is a call that logs at the debug or trace
// level: a function or method named Debug or Trace, one of its forms
// (l.Debugf, logrus.Traceln, Debugw) or one of those and a capitalised
// suffix (DebugContext). Such output is
// off unless the user asks for it (tablewriter's renderers log each
// column of a separator line through olekukonko/ll's Debugf, disabled
// unless -debug), and then a developer's diagnostics, expected as they
// happen as standard error's are: neither a per-record write nor a write
// a caller's summary passes on.
func (c *checker) debugLog(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return false
	}
	name := fn.Name()
	for _, p := range []string{"Debug", "Trace"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (debugSuffixes[rest] || unicode.IsUpper(rune(rest[0]))) {
			return true
		}
	}
	return false
}

// debugSuffixes are the endings of a debug call's name that the usual
// loggers give its forms (Debugf, Debugln, zap's Debugw): the empty one
// too. A capitalised ending (DebugContext) is one as well.
var debugSuffixes = map[string]bool{"": true, "f": true, "ln": true, "w": true}
