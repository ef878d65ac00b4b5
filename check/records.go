package check

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// smallRead is the size under which a Read into a constant-size buffer is
// a per-record read: bufio's buffer size.
const smallRead = 4096

// constLoopMax is the most iterations a loop of constant count may make
// and still not be a per-record loop.
const constLoopMax = 16

// record is one call that makes a system call per record.
type record struct {
	call   *ast.CallExpr
	what   string   // the call as the message names it: "fmt.Fprintf"
	file   string   // the file as written: "os.Stdout", "f", "log's output"
	fileX  ast.Expr // the file's expression; nil for os.Stdout, os.Stdin and log's output
	read   bool     // a read, not a write
	scan   bool     // fmt's scanning, which reads a byte at a time
	target ast.Expr // the *os.File argument or receiver a fix replaces; nil for fmt.Print*
	stdout bool     // fmt.Print*: writes to os.Stdout, with no argument naming it
	raw    bool     // a system call of its own (syscall.Write), which no flag buffers
}

// fixable reports whether the loop rewrite can move r to a bufio.Writer.
func (r *record) fixable() bool {
	return !r.read && (r.stdout || r.target != nil)
}

// loopRecords are the per-record calls of one loop, innermost loop first.
type loopRecords struct {
	loop  ast.Stmt   // *ast.ForStmt or *ast.RangeStmt
	stack []ast.Node // from the file down to loop
	recs  []*record
}

// call looks at one call expression and, if it is a per-record call in a
// loop, adds it to that loop's records.
func (c *checker) call(call *ast.CallExpr, stack []ast.Node) {
	r := c.classify(call)
	if r == nil || c.isStderr(r.fileX) {
		return
	}
	i := c.perIteration(stack)
	if i < 0 {
		return
	}
	loop := stack[i].(ast.Stmt)
	if r.read && c.seeks(loop, r.fileX) {
		return // random access: a buffer would be dropped at every Seek
	}
	if id := identOf(r.fileX); id != nil {
		if obj := c.pass.TypesInfo.Uses[id]; obj != nil && within(obj.Pos(), loop) {
			return // a file per iteration: nothing to buffer across them
		}
	}
	for _, lr := range c.loops {
		if lr.loop == loop {
			lr.recs = append(lr.recs, r)
			return
		}
	}
	c.loops = append(c.loops, &loopRecords{loop: loop, stack: append([]ast.Node(nil), stack[:i+1]...), recs: []*record{r}})
}

// classify returns the record call makes if it reads or writes an
// *os.File without a buffer, or nil.
func (c *checker) classify(call *ast.CallExpr) *record {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	pkg, name := fn.Pkg().Path(), fn.Name()
	sig := fn.Type().(*types.Signature)
	arg := func(i int) ast.Expr {
		if i < len(call.Args) {
			return call.Args[i]
		}
		return nil
	}
	if sig.Recv() == nil {
		what := fn.Pkg().Name() + "." + name
		switch {
		case pkg == "fmt" && (name == "Fprint" || name == "Fprintf" || name == "Fprintln"),
			pkg == "io" && name == "WriteString",
			pkg == "encoding/binary" && name == "Write":
			if c.isFile(arg(0)) {
				return &record{call: call, what: what, file: exprString(arg(0)), fileX: arg(0), target: ast.Unparen(arg(0))}
			}
		case pkg == "fmt" && (name == "Print" || name == "Printf" || name == "Println"):
			return &record{call: call, what: what, file: "os.Stdout", stdout: true}
		case pkg == "fmt" && (name == "Scan" || name == "Scanf" || name == "Scanln"):
			return &record{call: call, what: what, file: "os.Stdin", read: true, scan: true}
		case pkg == "fmt" && (name == "Fscan" || name == "Fscanf" || name == "Fscanln"):
			if c.isFile(arg(0)) {
				return &record{call: call, what: what, file: exprString(arg(0)), fileX: arg(0), read: true, scan: true}
			}
		case pkg == "encoding/binary" && name == "Read":
			if c.isFile(arg(0)) {
				return &record{call: call, what: what, file: exprString(arg(0)), fileX: arg(0), read: true}
			}
		case pkg == "io" && name == "ReadFull":
			if c.isFile(arg(0)) && c.smallBuffer(arg(1)) {
				return &record{call: call, what: what, file: exprString(arg(0)), fileX: arg(0), read: true}
			}
		case (pkg == "syscall" || pkg == "golang.org/x/sys/unix") && (name == "Write" || name == "Pwrite"):
			if file := c.rawFile(arg(0)); file != "" {
				return &record{call: call, what: what, file: file, raw: true}
			}
		case pkg == "log" && (name == "Print" || name == "Printf" || name == "Println"):
			if c.logToFile {
				return &record{call: call, what: what, file: "the *os.File of log.SetOutput"}
			}
		}
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	recv := ast.Unparen(sel.X)
	switch named := namedOf(sig.Recv().Type()); {
	case named == nil:
	case isNamed(named, "os", "File") && (name == "Write" || name == "WriteString"):
		return &record{call: call, what: "File." + name, file: exprString(recv), fileX: recv, target: recv}
	case isNamed(named, "os", "File") && name == "Read":
		if c.smallBuffer(arg(0)) {
			return &record{call: call, what: "File.Read", file: exprString(recv), fileX: recv, read: true}
		}
	case (isNamed(named, "encoding/json", "Encoder") || isNamed(named, "encoding/gob", "Encoder")) && name == "Encode":
		if f := c.madeOverFile(recv, named.Obj().Pkg().Path(), "NewEncoder"); f != nil {
			return &record{call: call, what: named.Obj().Pkg().Name() + ".Encoder.Encode", file: exprString(f), fileX: f}
		}
	case isNamed(named, "log", "Logger") && (name == "Print" || name == "Printf" || name == "Println"):
		if f := c.madeOverFile(recv, "log", "New"); f != nil {
			return &record{call: call, what: "log.Logger." + name, file: exprString(f), fileX: f}
		}
	}
	return nil
}

// rawFile returns the file the descriptor fd is, as the message names
// it: os.Stdout for the constant 1, f for f.Fd() of an *os.File f other
// than os.Stderr; "" for any other descriptor (a socket's, standard
// error's).
func (c *checker) rawFile(fd ast.Expr) string {
	if n, ok := c.intConst(fd); ok {
		if n == 1 {
			return "os.Stdout"
		}
		return ""
	}
	file := ""
	ast.Inspect(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || file != "" {
			return file == ""
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "Fd" && isOSFile(c.pass.TypesInfo.TypeOf(sel.X)) && !c.isStderr(sel.X) {
			file = exprString(sel.X)
		}
		return true
	})
	return file
}

// perIteration returns the index in stack of the innermost loop that runs
// the call at the top of stack once per iteration and more than a
// constant few times, or -1 if there is none in the call's function or
// the call is in the body of an if statement that tests an error, or
// the loop runs per event (eventLoop, runsProcess, readsTerminal), or
// the call logs at the debug level (debugLog).
func (c *checker) perIteration(stack []ast.Node) int {
	if c.debugLog(stack[len(stack)-1]) {
		return -1 // debug output: debuglog.go
	}
	for i := len(stack) - 2; i >= 0; i-- {
		child := stack[i+1]
		switch n := stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return -1
		case *ast.BlockStmt:
			if c.endsLeaving(n.List, stack[:i]) {
				return -1
			}
		case *ast.CaseClause:
			if c.endsLeaving(n.Body, stack[:i]) || c.errorCase(n, stack[:i]) {
				return -1
			}
		case *ast.IfStmt:
			if child == n.Body && (c.testsError(n.Cond) || c.isFalse(n.Cond) || countsError(n.Body) || flushWhenFull(n)) {
				return -1
			}
		case *ast.ForStmt:
			if child != n.Init && !c.constantFor(n) {
				if c.eventLoop(n) || c.runsProcess(stack, i) || c.readsTerminal(stack, i) {
					return -1 // per event: events.go, terminal.go
				}
				return c.live(stack, i)
			}
		case *ast.RangeStmt:
			if child == n.Body && !c.constantRange(n) {
				if c.runsProcess(stack, i) || c.readsTerminal(stack, i) {
					return -1
				}
				return c.live(stack, i)
			}
		}
	}
	return -1
}

// live returns i, the index in stack of a loop, or -1 if the loop is in
// the body of an if false in its function.
func (c *checker) live(stack []ast.Node, i int) int {
	for j := i - 1; j >= 0; j-- {
		switch n := stack[j].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return i
		case *ast.IfStmt:
			if stack[j+1] == n.Body && c.isFalse(n.Cond) {
				return -1
			}
		}
	}
	return i
}

// endsLeaving reports whether the statement list ends by leaving the
// loop it is in: a return, a break of the loop or a call that does not
// return (an error message before os.Exit). A call in it runs once, not
// per record. above are the nodes above the list, down to its block or
// case clause.
func (c *checker) endsLeaving(list []ast.Stmt, above []ast.Node) bool {
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		if last.Tok != token.BREAK || last.Label != nil {
			return false
		}
		// A break leaves the innermost for, switch or select.
		for i := len(above) - 1; i >= 0; i-- {
			switch above[i].(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return true
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				return false
			}
		}
		return false
	case *ast.ExprStmt:
		call, ok := last.X.(*ast.CallExpr)
		return ok && !c.mayReturn(call)
	}
	return false
}

// flushWhenFull reports whether n is a buffer's flush when it is full:
// its condition compares len(b) with a bound, and its body empties b
// (b = b[:0]), as a writer of its own buffer does (if w.limit <
// len(w.buf) { w.w.Write(w.buf); w.buf = w.buf[:0] }). Its writes run
// once per buffer's worth, not per record.
func flushWhenFull(n *ast.IfStmt) bool {
	for _, buf := range lenBounds(n.Cond) {
		if emptiesBuf(n.Body, buf) {
			return true
		}
	}
	return false
}

// lenBounds returns each b of a comparison of len(b) with a bound in
// cond, or in an operand of its &&s (if w.w != nil && w.limit <
// len(w.buf)).
func lenBounds(cond ast.Expr) []string {
	c, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch c.Op {
	case token.LAND:
		return append(lenBounds(c.X), lenBounds(c.Y)...)
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return nil
	}
	var bufs []string
	for _, side := range []ast.Expr{c.X, c.Y} {
		if call, ok := ast.Unparen(side).(*ast.CallExpr); ok && len(call.Args) == 1 {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "len" {
				bufs = append(bufs, types.ExprString(call.Args[0]))
			}
		}
	}
	return bufs
}

// emptiesBuf reports whether body has the statement buf = buf[:0].
func emptiesBuf(body *ast.BlockStmt, buf string) bool {
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || types.ExprString(as.Lhs[0]) != buf {
			continue
		}
		if sl, ok := ast.Unparen(as.Rhs[0]).(*ast.SliceExpr); ok && sl.Low == nil && types.ExprString(sl.X) == buf {
			if lit, ok := sl.High.(*ast.BasicLit); ok && lit.Value == "0" {
				return true
			}
		}
	}
	return false
}

// countsError reports whether body adds to a count of errors (nerrors++,
// s.errs += 1): it reports a failure, not a record.
func countsError(body *ast.BlockStmt) bool {
	for _, st := range body.List {
		var x ast.Expr
		switch st := st.(type) {
		case *ast.IncDecStmt:
			x = st.X
		case *ast.AssignStmt:
			if st.Tok == token.ADD_ASSIGN && len(st.Lhs) == 1 {
				x = st.Lhs[0]
			}
		}
		var name string
		switch x := x.(type) {
		case *ast.Ident:
			name = x.Name
		case *ast.SelectorExpr:
			name = x.Sel.Name
		}
		if strings.Contains(strings.ToLower(name), "err") {
			return true
		}
	}
	return false
}

// isFalse reports whether cond is the constant false, or a boolean the
// program never sets to true (deadFlags), or a && with either side false:
// the body is dead code kept for debugging.
func (c *checker) isFalse(cond ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[cond]
	if ok && tv.Value != nil {
		return tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
	}
	switch e := ast.Unparen(cond).(type) {
	case *ast.Ident:
		return c.dead[c.pass.TypesInfo.Uses[e]]
	case *ast.SelectorExpr:
		return c.dead[c.pass.TypesInfo.Uses[e.Sel]]
	case *ast.BinaryExpr:
		return e.Op == token.LAND && (c.isFalse(e.X) || c.isFalse(e.Y))
	}
	return false
}

// testsError reports whether cond looks at a value of an error type.
func (c *checker) testsError(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || found {
			return !found
		}
		switch e.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr:
			if t := c.pass.TypesInfo.TypeOf(e); t != nil && !isNil(t) && types.Implements(t, errorType) {
				found = true
			}
		}
		return true
	})
	return found
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// isNil reports whether t is the type of the untyped nil.
func isNil(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.UntypedNil
}

// constantFor reports whether loop counts up to a constant of at most
// constLoopMax from a constant.
func (c *checker) constantFor(loop *ast.ForStmt) bool {
	cond, ok := loop.Cond.(*ast.BinaryExpr)
	if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ && cond.Op != token.NEQ) {
		return false
	}
	n, ok := c.intConst(cond.Y)
	if !ok || n > constLoopMax {
		return false
	}
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || len(init.Rhs) != 1 {
		return false
	}
	_, ok = c.intConst(init.Rhs[0])
	return ok
}

// constantRange reports whether loop ranges over a list the source
// fixes (fixedList), an array or a constant of at most constLoopMax.
func (c *checker) constantRange(loop *ast.RangeStmt) bool {
	if c.fixedList(loop.X, 0) {
		return true
	}
	if n, ok := c.intConst(loop.X); ok {
		return n <= constLoopMax
	}
	t := c.pass.TypesInfo.TypeOf(loop.X)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	a, ok := t.Underlying().(*types.Array)
	return ok && a.Len() <= constLoopMax
}

// seeks reports whether loop's body calls Seek on the *os.File file: a
// read at a new offset each iteration (an archive's member headers),
// which a bufio.Reader would drop at every Seek.
func (c *checker) seeks(loop ast.Stmt, file ast.Expr) bool {
	if file == nil {
		return false
	}
	var body *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		body = l.Body
	case *ast.RangeStmt:
		body = l.Body
	}
	want := exprString(ast.Unparen(file))
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "Seek" && isOSFile(c.pass.TypesInfo.TypeOf(sel.X)) && exprString(ast.Unparen(sel.X)) == want {
			found = true
		}
		return !found
	})
	return found
}

// intConst returns the value of e if it is an integer constant.
func (c *checker) intConst(e ast.Expr) (int64, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

// isStderr reports whether e is os.Stderr, or a local variable every
// assignment of which is os.Stderr: standard error is never buffered, by
// any flag, so its writes are not reported.
func (c *checker) isStderr(e ast.Expr) bool {
	if e == nil {
		return false
	}
	e = ast.Unparen(e)
	if c.isStderrVar(e) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	a := c.assigns[c.pass.TypesInfo.Uses[id]]
	if a == nil || !a.local || len(a.values) == 0 {
		return false
	}
	for _, v := range a.values {
		if v == nil || !c.isStderrVar(ast.Unparen(v)) {
			return false
		}
	}
	return true
}

// isStderrVar reports whether e names the variable os.Stderr.
func (c *checker) isStderrVar(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "os" && v.Name() == "Stderr"
}

// errorCase reports whether clause is a case of a type switch that names
// an error type other than nil (case *SyntaxError:): it handles a
// failure, not a record. above are the nodes above clause.
func (c *checker) errorCase(clause *ast.CaseClause, above []ast.Node) bool {
	if len(above) < 2 {
		return false
	}
	if _, ok := above[len(above)-2].(*ast.TypeSwitchStmt); !ok {
		return false
	}
	for _, e := range clause.List {
		t := c.pass.TypesInfo.TypeOf(e)
		if t != nil && !isNil(t) && types.Implements(t, errorType) {
			return true
		}
	}
	return false
}

// isFile reports whether e is an *os.File: of that static type, or a
// local variable of interface type every assignment of which is one.
func (c *checker) isFile(e ast.Expr) bool {
	if e == nil {
		return false
	}
	e = ast.Unparen(e)
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	if isOSFile(t) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok || !types.IsInterface(t) {
		return false
	}
	a := c.assigns[c.pass.TypesInfo.Uses[id]]
	if a == nil || !a.local || len(a.values) == 0 {
		return false
	}
	for _, v := range a.values {
		if v == nil || !isOSFile(c.pass.TypesInfo.TypeOf(v)) {
			return false
		}
	}
	return true
}

// madeOverFile returns the *os.File e was made over if e is a call of
// pkg's function fn with an *os.File as its first argument, or a variable
// every assignment of which is such a call; otherwise nil.
func (c *checker) madeOverFile(e ast.Expr, pkg, fn string) ast.Expr {
	over := func(v ast.Expr) ast.Expr {
		call, ok := ast.Unparen(v).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return nil
		}
		f, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || f.Pkg() == nil || f.Pkg().Path() != pkg || f.Name() != fn || !c.isFile(call.Args[0]) {
			return nil
		}
		return call.Args[0]
	}
	e = ast.Unparen(e)
	if f := over(e); f != nil {
		return f
	}
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel // a package-level variable of another file or package is not known
	default:
		return nil
	}
	a := c.assigns[c.pass.TypesInfo.Uses[id]]
	if a == nil || len(a.values) == 0 {
		return nil
	}
	var first ast.Expr
	for _, v := range a.values {
		f := over(v)
		if v == nil || f == nil {
			return nil
		}
		if first == nil {
			first = f
		}
	}
	return first
}

// logSetToFile reports whether the package sets the standard logger's
// output, and always to an *os.File.
func (c *checker) logSetToFile(ins interface {
	Preorder([]ast.Node, func(ast.Node))
}) bool {
	n, files := 0, 0
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(node ast.Node) {
		call := node.(*ast.CallExpr)
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "log" || fn.Name() != "SetOutput" || fn.Type().(*types.Signature).Recv() != nil {
			return
		}
		n++
		if len(call.Args) == 1 && c.isFile(call.Args[0]) {
			files++
		}
	})
	return n > 0 && n == files
}

// smallBuffer reports whether e is a byte slice of a constant length under
// smallRead: make([]byte, N), b[i:j] with constant bounds, a[:] of an
// array, or a local variable always given one of those.
func (c *checker) smallBuffer(e ast.Expr) bool {
	n, ok := c.bufferLen(e, 0)
	return ok && n < smallRead
}

// bufferLen returns the constant length of the byte slice e, if it has one.
func (c *checker) bufferLen(e ast.Expr, depth int) (int64, bool) {
	if e == nil || depth > 3 {
		return 0, false
	}
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.SliceExpr:
		var lo int64
		if e.Low != nil {
			v, ok := c.intConst(e.Low)
			if !ok {
				return 0, false
			}
			lo = v
		}
		if e.High != nil {
			hi, ok := c.intConst(e.High)
			return hi - lo, ok
		}
		t := c.pass.TypesInfo.TypeOf(e.X)
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if a, ok := t.Underlying().(*types.Array); ok {
			return a.Len() - lo, true
		}
		n, ok := c.bufferLen(e.X, depth+1)
		return n - lo, ok
	case *ast.CallExpr:
		if b, ok := c.pass.TypesInfo.Uses[identOf(e.Fun)].(*types.Builtin); ok && b.Name() == "make" && len(e.Args) >= 2 {
			return c.intConst(e.Args[1])
		}
	case *ast.Ident:
		a := c.assigns[c.pass.TypesInfo.Uses[e]]
		if a == nil || !a.local || len(a.values) == 0 {
			return 0, false
		}
		var most int64
		for _, v := range a.values {
			n, ok := c.bufferLen(v, depth+1)
			if !ok {
				return 0, false
			}
			most = max(most, n)
		}
		return most, true
	}
	return 0, false
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// isOSFile reports whether t is *os.File.
func isOSFile(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && isNamed(n, "os", "File")
}

// namedOf returns the named type of t or of what t points to, or nil.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// isNamed reports whether n is pkg's type name.
func isNamed(n *types.Named, pkg, name string) bool {
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == pkg && obj.Name() == name
}

// exprString returns e as Go source.
func exprString(e ast.Expr) string {
	return types.ExprString(e)
}

// reportLoops reports every per-record call found, with the loop's fix
// on the first call of a loop where the rewrite is safe.
func (c *checker) reportLoops() {
	for _, lr := range c.loops {
		lr.recs = slices.DeleteFunc(lr.recs, func(r *record) bool { return c.childField(r.fileX) })
		if len(lr.recs) == 0 {
			continue
		}
		fix := c.loopFix(lr)
		for i, r := range lr.recs {
			d := diagnostic(r, fix != nil)
			if i == 0 && fix != nil {
				d.SuggestedFixes = append(d.SuggestedFixes, *fix)
			}
			c.pass.Report(d)
		}
	}
}

// buildHint names the stdiobuf build flag that buffers file's stream.
func buildHint(file string) string {
	if file == "os.Stdout" {
		return "or build with stdiobuf build -stdout"
	}
	return "or build with stdiobuf build -files"
}

// diagnostic returns the report of r; fixed says a suggested fix moves it
// to a bufio.Writer.
func diagnostic(r *record, fixed bool) analysis.Diagnostic {
	var msg string
	switch {
	case r.raw:
		msg = fmt.Sprintf("%s in a loop writes to %s unbuffered: one system call per record, which no stdiobuf build flag buffers (a system call of the program's own); add a bufio.Writer over the file and write through it, flushed after the loop", r.what, r.file)
	case r.scan:
		msg = fmt.Sprintf("%s in a loop reads %s unbuffered: one system call per record (per byte: fmt reads one at a time); scan a bufio.Reader over it, %s", r.what, r.file, buildHint(r.file))
	case r.read:
		msg = fmt.Sprintf("%s in a loop reads %s unbuffered: one system call per record; read through a bufio.Reader, %s", r.what, r.file, buildHint(r.file))
	case fixed:
		msg = fmt.Sprintf("%s in a loop writes to %s unbuffered: one system call per record; wrap it in a bufio.Writer flushed after the loop (suggested fix), %s", r.what, r.file, buildHint(r.file))
	default:
		msg = fmt.Sprintf("%s in a loop writes to %s unbuffered: one system call per record; write through a bufio.Writer flushed on every path, %s", r.what, r.file, buildHint(r.file))
	}
	return analysis.Diagnostic{Pos: r.call.Pos(), End: r.call.End(), Category: "per-record", Message: msg}
}

// inErrorBranch reports whether the call at the top of stack is, in its
// function, in the body of an if that tests an error, counts one or is
// false, in a type switch's case of an error type, or in a block other
// than the function's body that ends by leaving: it runs on failure, once
// or never. A call that logs at the debug level (debugLog) is excluded
// too: its output is not the program's.
func (c *checker) inErrorBranch(stack []ast.Node) bool {
	if c.debugLog(stack[len(stack)-1]) {
		return true // debug output, not the program's: debuglog.go
	}
	return c.inBranch(stack, c.endsLeaving)
}

// inBranch is the walk of inErrorBranch and excludedOnce, from the call
// at the top of stack out to its function: a block other than the
// function's body, or a case, for which ends (given its statements and
// the nodes above it) reports that it runs once; a case of an error
// type; the body of an if that tests an error, counts one, is false or
// flushes a full buffer.
func (c *checker) inBranch(stack []ast.Node, ends func(list []ast.Stmt, above []ast.Node) bool) bool {
	for i := len(stack) - 2; i >= 1; i-- {
		child := stack[i+1]
		switch n := stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			switch stack[i-1].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
			default:
				if ends(n.List, stack[:i]) {
					return true
				}
			}
		case *ast.CaseClause:
			if ends(n.Body, stack[:i]) || c.errorCase(n, stack[:i]) {
				return true
			}
		case *ast.IfStmt:
			if child == n.Body && (c.testsError(n.Cond) || c.isFalse(n.Cond) || countsError(n.Body) || flushWhenFull(n)) {
				return true
			}
		}
	}
	return false
}
