package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// useKind is what a use of a bufio.Writer variable does to it.
type useKind int

const (
	useNone     useKind = iota // Buffered, Available, Size: nothing
	useWrite                   // puts bytes in its buffer
	useFlush                   // Flush
	useDeferred                // defer w.Flush(), or a deferred function literal that calls it
	useEscape                  // anything else: the writer may be flushed elsewhere
)

// writerMethods are what bufio.Writer's methods do to it.
var writerMethods = map[string]useKind{
	"Write": useWrite, "WriteString": useWrite, "WriteByte": useWrite, "WriteRune": useWrite, "ReadFrom": useWrite,
	"Flush": useFlush, "Buffered": useNone, "Available": useNone, "Size": useNone, "AvailableBuffer": useNone,
}

// writerFuncs are the functions that write to their first argument and
// keep nothing of it.
var writerFuncs = map[string]bool{
	"fmt.Fprint": true, "fmt.Fprintf": true, "fmt.Fprintln": true,
	"io.WriteString": true, "io.Copy": true, "io.CopyN": true, "io.CopyBuffer": true,
}

// use is one use of a writer variable.
type use struct {
	pos  token.Pos
	kind useKind
}

// writersFlushed reports, for each bufio.Writer (or stream.Writer) the
// function fn makes into a local variable that it never assigns again and
// that does not escape, each return and os.Exit that a path reaches after
// writing to it without a Flush.
func (c *checker) writersFlushed(body *ast.BlockStmt) {
	var g *cfg.CFG
	inspectFunc(body, func(n ast.Node, stack []ast.Node) {
		var id *ast.Ident
		var value ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				return
			}
			id, _ = n.Lhs[0].(*ast.Ident)
			value = n.Rhs[0]
		case *ast.ValueSpec:
			if len(n.Names) != 1 || len(n.Values) != 1 {
				return
			}
			id, value = n.Names[0], n.Values[0]
		default:
			return
		}
		if id == nil || !c.newsWriter(value) {
			return
		}
		obj := c.pass.TypesInfo.Defs[id]
		if a := c.assigns[obj]; obj == nil || a == nil || len(a.values) != 1 {
			return
		}
		uses, ok := c.writerUses(body, obj)
		if !ok {
			return
		}
		if g == nil {
			g = cfg.New(body, c.mayReturn)
		}
		c.unflushedPaths(g, n, id, value, stack, uses)
	})
}

// newsWriter reports whether e calls NewWriter or NewWriterSize of bufio
// or stream.
func (c *checker) newsWriter(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	p := fn.Pkg().Path()
	return (p == "bufio" || p == streamPath) && (fn.Name() == "NewWriter" || fn.Name() == "NewWriterSize")
}

// writerUses returns the uses of the writer obj in body, or false if one
// lets it escape.
func (c *checker) writerUses(body *ast.BlockStmt, obj types.Object) ([]use, bool) {
	var uses []use
	ok := true
	c.identUses(body, obj, func(stack []ast.Node) {
		u := c.classifyUse(stack)
		if u.kind == useEscape {
			ok = false
		}
		uses = append(uses, u)
	})
	return uses, ok
}

// identUses calls f for each identifier under root that uses obj, with
// the nodes from root down to it.
func (c *checker) identUses(root ast.Node, obj types.Object, f func(stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == obj {
			f(stack)
		}
		return true
	})
}

// classifyUse returns what the use at the top of stack, an identifier
// naming a writer, does to it.
func (c *checker) classifyUse(stack []ast.Node) use {
	id := stack[len(stack)-1]
	parent := func(i int) ast.Node {
		if len(stack)-1-i < 0 {
			return nil
		}
		return stack[len(stack)-1-i]
	}
	kind := useEscape
	var call *ast.CallExpr
	if sel, ok := parent(1).(*ast.SelectorExpr); ok && sel.X == id {
		if cl, ok := parent(2).(*ast.CallExpr); ok && cl.Fun == sel {
			call = cl
			if k, known := writerMethods[sel.Sel.Name]; known {
				kind = k
			}
		}
	} else if cl, ok := parent(1).(*ast.CallExpr); ok && len(cl.Args) > 0 && cl.Args[0] == id {
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, cl).(*types.Func); ok && fn.Pkg() != nil && writerFuncs[fn.Pkg().Path()+"."+fn.Name()] {
			call, kind = cl, useWrite
		}
	}
	pos := id.Pos()
	// A use in a function literal is an escape, but for a Flush in a
	// deferred one; a Flush deferred itself is a deferred flush.
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.DeferStmt:
			if kind == useFlush && n.Call == call {
				return use{n.Pos(), useDeferred}
			}
		case *ast.FuncLit:
			if kind != useFlush {
				return use{pos, useEscape}
			}
			if i > 1 {
				if d, ok := stack[i-2].(*ast.DeferStmt); ok && d.Call == stack[i-1] {
					return use{d.Pos(), useDeferred}
				}
			}
			return use{pos, useEscape}
		}
	}
	return use{pos, kind}
}

// pathState is where a walk of the control-flow graph is and what it has
// seen since the writer was made.
type pathState struct {
	block    int32
	written  bool // a write reached the buffer
	deferred bool // a Flush is deferred
}

// unflushedPaths walks g from the statement def that makes the writer id
// and reports each return and os.Exit reached after a write without a
// Flush.
func (c *checker) unflushedPaths(g *cfg.CFG, def ast.Node, id *ast.Ident, value ast.Expr, stack []ast.Node, uses []use) {
	var start *cfg.Block
	startAt := -1
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if n == def {
				start, startAt = b, i
			}
		}
	}
	if start == nil {
		return
	}
	usesIn := func(n ast.Node) []use {
		var us []use
		for _, u := range uses {
			if n.Pos() <= u.pos && u.pos < n.End() {
				us = append(us, u)
			}
		}
		return us
	}
	line := c.pass.Fset.Position(def.Pos()).Line
	fix := c.deferFlushFix(def, id, value, stack)
	reported := map[ast.Node]bool{}
	seen := map[pathState]bool{}
	var walk func(b *cfg.Block, from int, st pathState)
	walk = func(b *cfg.Block, from int, st pathState) {
		st.block = b.Index
		if from == 0 {
			if seen[st] {
				return
			}
			seen[st] = true
		}
		for _, n := range b.Nodes[from:] {
			if n == def {
				return // a new writer; the old one is dropped
			}
			for _, u := range usesIn(n) {
				switch u.kind {
				case useWrite:
					st.written = true
				case useFlush:
					return
				case useDeferred:
					st.deferred = true
				}
			}
		}
		if len(b.Succs) > 0 {
			for _, s := range b.Succs {
				walk(s, 0, st)
			}
			return
		}
		if !b.Live || len(b.Nodes) == 0 || !st.written {
			return
		}
		last := b.Nodes[len(b.Nodes)-1]
		var msg string
		switch last := last.(type) {
		case *ast.ReturnStmt:
			if st.deferred || c.returnsError(last) {
				return
			}
			at := "this return"
			if isClosingBrace(g, last) {
				at = "the end of the function"
			}
			msg = fmt.Sprintf("%s, a bufio.Writer written to after line %d, reaches %s without Flush: what it holds is lost; call %s.Flush() on every path", id.Name, line, at, id.Name)
		case *ast.ExprStmt:
			call, ok := last.X.(*ast.CallExpr)
			if !ok || !isFunc(c.pass, call, "os", "Exit") {
				return // panic, log.Fatal and the like
			}
			msg = fmt.Sprintf("%s, a bufio.Writer written to after line %d, reaches os.Exit without Flush (deferred calls do not run): what it holds is lost; call %s.Flush() before os.Exit", id.Name, line, id.Name)
		default:
			return
		}
		if reported[last] {
			return
		}
		reported[last] = true
		d := analysis.Diagnostic{Pos: last.Pos(), End: last.End(), Category: "flush", Message: msg}
		if _, isReturn := last.(*ast.ReturnStmt); isReturn && fix != nil {
			d.Message += " (suggested fix: defer " + id.Name + ".Flush())"
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
			fix = nil
		}
		c.pass.Report(d)
	}
	walk(start, startAt+1, pathState{})
}

// noReturn are the functions and methods that never return, as
// package.Name or package.Type.Name.
var noReturn = map[string]bool{
	"os.Exit": true, "runtime.Goexit": true,
	"log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"log.Panic": true, "log.Panicf": true, "log.Panicln": true,
	"log.Logger.Fatal": true, "log.Logger.Fatalf": true, "log.Logger.Fatalln": true,
	"log.Logger.Panic": true, "log.Logger.Panicf": true, "log.Logger.Panicln": true,
	"testing.common.Fatal": true, "testing.common.Fatalf": true, "testing.common.FailNow": true,
	"testing.common.Skip": true, "testing.common.Skipf": true, "testing.common.SkipNow": true,
}

// mayReturn reports whether call may return: it is not a call of panic
// or of a function of noReturn. The control-flow graph ends a block at
// a call that does not.
func (c *checker) mayReturn(call *ast.CallExpr) bool {
	if b, ok := c.pass.TypesInfo.Uses[identOf(call.Fun)].(*types.Builtin); ok {
		return b.Name() != "panic"
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return true
	}
	name := fn.Pkg().Path() + "." + fn.Name()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		named := namedOf(recv.Type())
		if named == nil {
			return true
		}
		name = fn.Pkg().Path() + "." + named.Obj().Name() + "." + fn.Name()
	}
	return !noReturn[name]
}

// returnsError reports whether ret returns an error other than nil: the
// caller learns of the failure, and output cut short by it is expected.
func (c *checker) returnsError(ret *ast.ReturnStmt) bool {
	for _, r := range ret.Results {
		t := c.pass.TypesInfo.TypeOf(r)
		if t != nil && !isNil(t) && types.Implements(t, errorType) {
			return true
		}
	}
	return false
}

// isClosingBrace reports whether ret is the return the CFG adds at the
// closing brace of the function's body.
func isClosingBrace(g *cfg.CFG, ret *ast.ReturnStmt) bool {
	body, ok := g.Blocks[0].Stmt.(*ast.BlockStmt)
	return ok && ret.Return == body.Rbrace
}

// deferFlushFix returns the edit that defers the writer's Flush right
// after def, or nil where that is not safe: the writer is over os.Stdout
// or os.Stderr (a deferred Flush of another file could run after its
// Close), and def is a statement of the function's body outside any loop.
func (c *checker) deferFlushFix(def ast.Node, id *ast.Ident, value ast.Expr, stack []ast.Node) *analysis.SuggestedFix {
	assign, ok := def.(*ast.AssignStmt)
	if !ok {
		return nil
	}
	call := ast.Unparen(value).(*ast.CallExpr)
	if len(call.Args) == 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "os" || (v.Name() != "Stdout" && v.Name() != "Stderr") {
		return nil
	}
	for _, n := range stack[:len(stack)-1] {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return nil
		}
	}
	if _, ok := stack[len(stack)-2].(*ast.BlockStmt); !ok {
		return nil
	}
	indent := c.indentAt(assign.Pos())
	return &analysis.SuggestedFix{
		Message:   "Defer " + id.Name + ".Flush() after it is made",
		TextEdits: []analysis.TextEdit{{Pos: assign.End(), End: assign.End(), NewText: []byte("\n" + indent + "defer " + id.Name + ".Flush()")}},
	}
}

// isFunc reports whether call calls pkg's function name.
func isFunc(pass *analysis.Pass, call *ast.CallExpr, pkg, name string) bool {
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}

// inspectFunc calls f with each node of body and the nodes above it from
// body down, leaving out function literals, which have their own pass.
func inspectFunc(body *ast.BlockStmt, f func(n ast.Node, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		stack = append(stack, n)
		f(n, stack)
		return true
	})
}

// scannerErrs reports each `for sc.Scan()` loop of body over a Scanner
// held in a local variable of the function that it never calls Err on
// and that does not escape.
func (c *checker) scannerErrs(body *ast.BlockStmt) {
	inspectFunc(body, func(n ast.Node, stack []ast.Node) {
		loop, ok := n.(*ast.ForStmt)
		if !ok || loop.Init != nil || loop.Post != nil {
			return
		}
		call, ok := ast.Unparen(loop.Cond).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Scan" {
			return
		}
		id := identOf(sel.X)
		if id == nil {
			return
		}
		obj := c.pass.TypesInfo.Uses[id]
		named := namedOf(c.pass.TypesInfo.TypeOf(id))
		if obj == nil || named == nil || !(isNamed(named, "bufio", "Scanner") || isNamed(named, streamPath, "Scanner")) {
			return
		}
		a := c.assigns[obj]
		if a == nil || !a.local || !within(obj.Pos(), body) || c.inMemory(a.values) {
			return
		}
		checked, escapes := false, false
		c.identUses(body, obj, func(st []ast.Node) {
			s, ok := st[len(st)-2].(*ast.SelectorExpr)
			switch {
			case !ok || s.X != st[len(st)-1]:
				escapes = true
			case s.Sel.Name == "Err":
				checked = true
			}
		})
		if checked || escapes {
			return
		}
		c.pass.Report(analysis.Diagnostic{
			Pos: loop.Pos(), End: loop.Cond.End(), Category: "scanner-err",
			Message: fmt.Sprintf("for %s.Scan() loop never checks %s.Err(): a read error or a line longer than the Scanner's buffer ends the loop as end of input does; check %s.Err() after the loop", id.Name, id.Name, id.Name),
		})
	})
}

// memoryReaders are the readers over memory, which return no error but
// io.EOF.
var memoryReaders = map[string]bool{
	"strings.NewReader": true, "bytes.NewReader": true, "bytes.NewBuffer": true, "bytes.NewBufferString": true,
}

// inMemory reports whether every one of values is a Scanner made over a
// reader of memoryReaders, where Err can only say that a line was longer
// than the Scanner's buffer.
func (c *checker) inMemory(values []ast.Expr) bool {
	for _, v := range values {
		call, ok := ast.Unparen(v).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		if !c.memoryReader(call.Args[0], 0) {
			return false
		}
	}
	return len(values) > 0
}

// memoryReader reports whether e is a call of memoryReaders or a local
// variable always given one.
func (c *checker) memoryReader(e ast.Expr, depth int) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(c.pass.TypesInfo, e).(*types.Func)
		return ok && fn.Pkg() != nil && memoryReaders[fn.Pkg().Path()+"."+fn.Name()]
	case *ast.Ident:
		a := c.assigns[c.pass.TypesInfo.Uses[e]]
		if a == nil || !a.local || len(a.values) == 0 || depth > 3 {
			return false
		}
		for _, v := range a.values {
			if v == nil || !c.memoryReader(v, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// within reports whether pos is inside n.
func within(pos token.Pos, n ast.Node) bool {
	return n.Pos() <= pos && pos < n.End()
}
