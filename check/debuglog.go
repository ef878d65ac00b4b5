package check

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// debugLevels are the names of a logger's methods and functions that log
// at the debug or trace level.
var debugLevels = map[string]bool{
	"Debug": true, "Debugf": true, "Debugln": true, "Debugw": true,
	"Trace": true, "Tracef": true, "Traceln": true, "Tracew": true,
}

// debugLog reports whether n is a call that logs at the debug or trace
// level (l.Debugf, logrus.Tracef): output off unless the user asks for
// it, and then a developer's diagnostics, expected as they happen as
// standard error's are. Such a call is neither a per-record write nor
// a write a caller's summary passes on.
func (c *checker) debugLog(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && debugLevels[fn.Name()]
}
