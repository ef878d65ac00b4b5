package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// The interprocedural check follows an *os.File into the functions it is
// passed to, the struct fields it is stored in and the function values
// that close over it, within a package and, by facts, across packages.
//
// It works bottom up, as go/analysis visits packages: each function's
// summary (funcFact) says which of its parameters it writes through (a
// sink), whether once per call or per record, and which parameters its
// results hold (a flow). A caller that passes a file where a callee has a
// sink writes to that file; a caller that passes one of its own
// parameters gets a sink of its own. Inside a function, what an
// expression may hold (its origins) is the union of every value given to
// the variables it names, but for an assignment at the top level of the
// function's body, after which only later values count (w =
// bufio.NewWriter(w) buffers w for the rest of the function).

// bufPath is the pseudo-field under which a bufio.Writer (or csv.Writer,
// stream.Writer) holds the writer it was made over: writes to the buffer
// are not writes to the file, its Flush is.
const bufPath = "#buf"

// funcFact is what a function does with the writers it is given.
type funcFact struct {
	Sinks  []Sink
	Flows  []Flow
	Stores []Flow // what it stores in a parameter's field: Result is the parameter (stored.go)
}

func (*funcFact) AFact() {}

func (f *funcFact) String() string {
	var parts []string
	for _, s := range f.Sinks {
		method := ""
		if s.Method != "" {
			method = " method=" + s.Method
		}
		parts = append(parts, fmt.Sprintf("sink(%d%s%s%s call=%v loop=%v)", s.Param, dotPath(s.Path), s.File, method, s.Call, s.Loop))
	}
	for _, fl := range f.Flows {
		parts = append(parts, fmt.Sprintf("flow(result %d%s <- %d%s %s call=%v)", fl.Result, dotPath(fl.RPath), fl.Param, dotPath(fl.PPath), fl.File, fl.Call))
	}
	for _, st := range f.Stores {
		parts = append(parts, fmt.Sprintf("store(%d%s <- %d%s%s)", st.Result, dotPath(st.RPath), st.Param, dotPath(st.PPath), st.File))
	}
	return strings.Join(parts, " ")
}

// fieldFact says a struct field may hold an unbuffered *os.File: the
// field's package stores one in it.
type fieldFact struct {
	File   string // the file as written where it is stored: "os.Stdout"
	Stdout bool   // it is os.Stdout
}

func (*fieldFact) AFact() {}

func (f *fieldFact) String() string { return "holds " + f.File }

// A Sink is a parameter a function writes through, or calls, or a file
// it writes once per call.
type Sink struct {
	Param  int    // the parameter, the receiver first for a method; -1 for File
	File   string // the file written, when Param is -1
	Stdout bool   // File is os.Stdout
	Path   string // the field path in it, "" for the parameter itself
	Call   bool   // the function calls the func value there, which writes
	Method string // the function calls this method of the interface value there (reverse.go)
	Loop   bool   // per record: in a loop of the function, or of a callee
	Trail  Trail
}

// A Flow is a parameter's value, or a file, that a result holds.
type Flow struct {
	Result int    // the result
	RPath  string // the field path in it
	Param  int    // the parameter, or -1 for File
	PPath  string // the field path in the parameter
	File   string // the file the result holds, when Param is -1
	Stdout bool   // File is os.Stdout
	Read   bool   // File is open for reading only: os.Stdin, os.Open's
	Call   bool   // the result is a func value that, called, writes through the parameter
	Loop   bool   // ... per record
	Trail  Trail  // ... this way
}

// A Trail is how a call reaches the write that costs a system call.
type Trail struct {
	Via   []Step // the functions from the caller's callee down, outermost first
	What  string // the write: "fmt.Fprintf", "bufio.Writer.Flush"
	At    string // its position: "table.go:265"
	Pkg   string // its package's path: At's file name may be another package's too
	Flush bool   // the write is the Flush of the program's own buffer
	Loop  bool   // the write is in a loop of its own function
}

// A Step is one function of a trail, with the parameter the writer is in.
type Step struct {
	Pkg  string // the function's package's name
	Func string // "report", "(*Writer).Write"
	Arg  string // the parameter (and field) the writer is in: "w", "w.out"
}

// target is where an origin's writes land: a file, or a parameter of the
// function the expression is in.
type target struct {
	param  int    // the parameter; -1 for a file
	ppath  string // the field path in the parameter
	file   string // the file as written, when param is -1
	stdout bool   // the file is os.Stdout
	read   bool   // the file is open for reading only: no write reaches it
	decl   token.Pos
}

// origin is one thing an expression may hold at a field path.
type origin struct {
	path  string // where in the value: "" the value itself, "w" its field w
	t     target
	call  bool  // the value at path is a func value that writes to t when called
	loop  bool  // ... per record
	trail Trail // ... this way
}

// assign is one value given to a variable.
type assign struct {
	value ast.Expr  // the right-hand side, nil if not known
	index int       // which result of value, a call of several results
	path  string    // x.f = value gives x's field f: "f"
	stmt  ast.Node  // the statement
	kill  bool      // an assignment of the whole variable at the top level of its function's body
	lit   bool      // in a function literal
	pos   token.Pos // the statement's end
}

// site is one call of the package, with where it runs.
type site struct {
	call     *ast.CallExpr
	decl     *ast.FuncDecl // the function it is in
	lit      *ast.FuncLit  // the innermost function literal it is in, or nil
	owner    *ast.FuncLit  // the innermost function literal it is in that is not an argument, or nil
	loop     ast.Stmt      // the loop it runs once per iteration of, or nil
	excluded bool          // in an error branch, dead code or a block that leaves
	deferred bool          // the call of a go or defer statement
	callOnce bool          // in no loop, where what the call writes once per call is not per record: beside a process its function starts whenever it runs (besideProcess), or in a function that ends the program (endsProgram); a loop in the callee stays per record
}

// A function literal passed as an argument is taken as part of the
// function it is in (a callee that is not followed, such as
// filepath.Walk or errgroup's Go, calls it); one assigned, returned or
// stored writes only where it is called.

// litSpan is a function literal's extent, and the literal it is in.
type litSpan struct {
	pos, end token.Pos
	parent   int // index of the enclosing literal in flow.lits, or -1
}

// event is a write a call makes, directly or through its callees.
type event struct {
	t     target
	loop  bool
	trail Trail
	via   bool // through a callee or a function value: the message names the chain
}

// flow is the interprocedural check of one package.
type flow struct {
	c           *checker
	sites       []*site
	byLit       map[*ast.FuncLit][]*site // the calls each literal owns or is the innermost literal of
	lits        []litSpan                // every function literal, in source order
	returns     map[*ast.FuncDecl][]*ast.ReturnStmt
	assigns     map[*types.Var][]*assign
	fields      map[*types.Var][]ast.Expr // values stored in this package's struct fields
	params      map[*types.Var]int        // index of each parameter of the package's function declarations
	funcs       map[*types.Func]*funcFact // this package's summaries
	decls       map[*ast.FuncDecl]*types.Func
	direct      map[*ast.CallExpr]bool     // calls the per-record check reports
	impls       map[any][]*types.Func      // the methods an interface method call may run (implsOf)
	stores      map[*types.Var][]storeSite // the calls each variable is given to, which may store in it (stored.go)
	paramFunc   map[*types.Var]*types.Func // the function of each parameter in params
	ranges      map[*types.Var]ast.Expr    // the range expression of each func-typed range variable
	handoffs    []ast.Expr                 // values given to a child process's files (child.go)
	childFields map[*types.Var]bool        // the package's fields bound per statement and shared with child processes

	// Per round of the fixed point.
	origins map[ast.Expr][]origin
	events  map[*site][]event
	busy    map[any]bool
	changed bool
}

// interprocedural runs the check over the package, exports its facts and
// reports per-record writes it finds that the direct check does not.
func (c *checker) interprocedural(ins *inspector.Inspector) {
	fl := &flow{
		c:         c,
		byLit:     map[*ast.FuncLit][]*site{},
		returns:   map[*ast.FuncDecl][]*ast.ReturnStmt{},
		assigns:   map[*types.Var][]*assign{},
		fields:    map[*types.Var][]ast.Expr{},
		params:    map[*types.Var]int{},
		paramFunc: map[*types.Var]*types.Func{},
		funcs:     map[*types.Func]*funcFact{},
		decls:     map[*ast.FuncDecl]*types.Func{},
		direct:    map[*ast.CallExpr]bool{},
	}
	for _, lr := range c.loops {
		for _, r := range lr.recs {
			fl.direct[r.call] = true
		}
	}
	fl.collect(ins)
	fl.markChildFields()
	c.childFields = fl.childFields
	for round := 0; round < 8; round++ {
		fl.origins, fl.events, fl.busy, fl.changed = map[ast.Expr][]origin{}, map[*site][]event{}, map[any]bool{}, false
		fl.summarize()
		if !fl.changed {
			break
		}
	}
	for fn, f := range fl.funcs {
		// Only an exported function can be called from another package;
		// what an unexported one does is in the summaries of those that
		// call it.
		if fn.Exported() && len(f.Sinks)+len(f.Flows)+len(f.Stores) > 0 && !strings.HasSuffix(c.pass.Fset.File(fn.Pos()).Name(), "_test.go") {
			c.pass.ExportObjectFact(fn, f)
		}
	}
	fl.exportFields()
	fl.exportVars()
	fl.report()
}

// collect records the package's calls, assignments, returns and
// parameters.
func (fl *flow) collect(ins *inspector.Inspector) {
	info := fl.c.pass.TypesInfo
	passed := map[*ast.FuncLit]bool{}
	var open []int // the literals the traversal is in
	types_ := []ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil), (*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.ReturnStmt)(nil), (*ast.CompositeLit)(nil), (*ast.RangeStmt)(nil)}
	ins.WithStack(types_, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			if _, ok := n.(*ast.FuncLit); ok {
				open = open[:len(open)-1]
			}
			return true
		}
		decl, lit := enclosing(stack)
		switch n := n.(type) {
		case *ast.FuncLit:
			parent := -1
			if len(open) > 0 {
				parent = open[len(open)-1]
			}
			fl.lits = append(fl.lits, litSpan{pos: n.Pos(), end: n.End(), parent: parent})
			open = append(open, len(fl.lits)-1)
			if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun != n && !isConversion(info, call) {
				passed[n] = true
			}
		case *ast.FuncDecl:
			fn, _ := info.Defs[n.Name].(*types.Func)
			if fn == nil {
				return true
			}
			fl.decls[n] = fn
			sig := fn.Type().(*types.Signature)
			i := 0
			if sig.Recv() != nil {
				fl.params[sig.Recv()] = 0
				fl.paramFunc[sig.Recv()] = fn
				i = 1
			}
			for j := range sig.Params().Len() {
				fl.params[sig.Params().At(j)] = i + j
				fl.paramFunc[sig.Params().At(j)] = fn
			}
		case *ast.RangeStmt:
			fl.collectRange(n)
		case *ast.CallExpr:
			if decl == nil {
				return true
			}
			if lit == nil {
				// A store in a function literal happens where it is
				// called, if ever (pflag's Usage closure sets the
				// output): only a function's own calls count.
				fl.collectStoreSite(n)
			}
			s := &site{call: n, decl: decl, lit: lit, owner: owner(stack, passed)}
			switch stack[len(stack)-2].(type) {
			case *ast.DeferStmt, *ast.GoStmt:
				s.deferred = true
			}
			if i := fl.c.perIteration(stack); i >= 0 {
				s.loop = stack[i].(ast.Stmt)
			} else {
				s.excluded = fl.c.excludedOnce(stack)
				s.callOnce = fl.c.besideProcess(stack) || fl.c.endsProgram(stack)
			}
			s.excluded = s.excluded || fl.c.debugLog(n)
			fl.sites = append(fl.sites, s)
			if lit != nil {
				fl.byLit[lit] = append(fl.byLit[lit], s)
			}
			if s.owner != nil && s.owner != lit {
				fl.byLit[s.owner] = append(fl.byLit[s.owner], s)
			}
		case *ast.ReturnStmt:
			if decl != nil && lit == nil {
				fl.returns[decl] = append(fl.returns[decl], n)
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				return true
			}
			fl.collectHandoff(n)
			top := decl != nil && lit == nil && len(stack) >= 3 && stack[len(stack)-2] == decl.Body
			for i, lhs := range n.Lhs {
				a := &assign{stmt: n, kill: top, lit: lit != nil, pos: n.End()}
				if len(n.Lhs) == len(n.Rhs) {
					a.value = n.Rhs[i]
				} else if len(n.Rhs) == 1 {
					a.value, a.index = n.Rhs[0], i
				}
				fl.assignTo(lhs, a)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				a := &assign{stmt: n, lit: lit != nil, pos: n.End()}
				switch {
				case len(n.Values) == len(n.Names):
					a.value = n.Values[i]
				case len(n.Values) == 1:
					a.value, a.index = n.Values[0], i
				default:
					continue // the zero value holds no file
				}
				fl.assignTo(id, a)
			}
		case *ast.CompositeLit:
			fl.collectHandoff(n)
			fl.eachField(n, func(f *types.Var, v ast.Expr) {
				if f.Pkg() == fl.c.pass.Pkg {
					fl.fields[f] = append(fl.fields[f], v)
				}
			})
		}
		return true
	})
}

// enclosing returns the function declaration and the innermost function
// literal of stack.
func enclosing(stack []ast.Node) (*ast.FuncDecl, *ast.FuncLit) {
	var decl *ast.FuncDecl
	var lit *ast.FuncLit
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl:
			decl = n
		case *ast.FuncLit:
			lit = n
		}
	}
	return decl, lit
}

// owner returns the innermost function literal of stack that is not
// passed as an argument, or nil.
func owner(stack []ast.Node, passed map[*ast.FuncLit]bool) *ast.FuncLit {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			return nil
		case *ast.FuncLit:
			if !passed[n] {
				return n
			}
		}
	}
	return nil
}

// assignTo records a as a value of lhs: a variable, or a field of one.
func (fl *flow) assignTo(lhs ast.Expr, a *assign) {
	info := fl.c.pass.TypesInfo
	var path []string
	e := ast.Unparen(lhs)
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			break
		}
		f, ok := info.ObjectOf(sel.Sel).(*types.Var)
		if !ok || !f.IsField() {
			if ok && f.Pkg() == fl.c.pass.Pkg { // a package-level variable of this package, qualified
				e = sel.Sel
			}
			break
		}
		if len(path) == 0 && f.Pkg() == fl.c.pass.Pkg && a.index == 0 && a.value != nil {
			fl.fields[f] = append(fl.fields[f], a.value)
		}
		path = append([]string{f.Name()}, path...)
		e = ast.Unparen(sel.X)
	}
	if star, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(star.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() {
		return
	}
	if len(path) > 0 {
		a = &assign{value: a.value, index: a.index, path: strings.Join(path, "."), stmt: a.stmt, lit: a.lit, pos: a.pos}
	}
	fl.assigns[v] = append(fl.assigns[v], a)
}

// eachField calls f with each field a composite literal of a struct sets
// and its value.
func (fl *flow) eachField(lit *ast.CompositeLit, f func(*types.Var, ast.Expr)) {
	t := fl.c.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				if v, ok := fl.c.pass.TypesInfo.ObjectOf(id).(*types.Var); ok && v.IsField() {
					f(v, kv.Value)
				}
			}
		} else if i < st.NumFields() {
			f(st.Field(i), elt)
		}
	}
}

// summarize makes one round of the fixed point: every call's events,
// the sinks and flows they give their functions.
func (fl *flow) summarize() {
	for _, s := range fl.sites {
		fn := fl.decls[s.decl]
		if fn == nil || s.excluded || s.owner != nil {
			continue
		}
		fl.methodSinks(fn, s)
		for _, ev := range fl.eventsOf(s) {
			switch {
			case s.callOnce && !ev.loop:
				// Once per call: beside a process started per call, or
				// in a function that ends the program.
			case fl.direct[s.call] && !ev.via:
			case ev.t.param >= 0:
				fl.addSink(fn, Sink{Param: ev.t.param, Path: ev.t.ppath, Loop: ev.loop, Trail: ev.trail})
			case ev.t.decl.IsValid() && within(ev.t.decl, s.decl):
				// A file the function opens on each call (and closes):
				// nothing to buffer across its calls.
			case !ev.loop:
				// Once per call: per record where the call is.
				fl.addSink(fn, Sink{Param: -1, File: ev.t.file, Stdout: ev.t.stdout, Trail: ev.trail})
			}
		}
		// A call of a func value that is a parameter.
		if x, ok := fl.funcValue(s.call); ok {
			for _, o := range fl.originsOf(x) {
				if !o.call && o.t.param >= 0 && o.path == "" {
					fl.addSink(fn, Sink{Param: o.t.param, Path: o.t.ppath, Call: true, Loop: s.loop != nil})
				}
			}
			continue
		}
		// A parameter's func value given to a callee that calls it
		// (enc.Encode(r) of vegeta's Encoder, a callback): the
		// function calls it too, per record if the callee or the call
		// is.
		for _, th := range fl.throughs(s) {
			if !th.call || th.step == nil {
				continue
			}
			for _, o := range fl.originsOf(th.x) {
				if o.call || o.t.param < 0 {
					continue
				}
				if rest, ok := cutPath(th.path, o.path); ok {
					fl.addSink(fn, Sink{Param: o.t.param, Path: joinPath(o.t.ppath, rest), Call: true, Loop: th.loop || s.loop != nil})
				}
			}
		}
	}
	fl.summarizeStores()
	for decl, rets := range fl.returns {
		fn := fl.decls[decl]
		if fn == nil {
			continue
		}
		for _, ret := range rets {
			n := fn.Type().(*types.Signature).Results().Len()
			for i, r := range ret.Results {
				os := fl.originsOf(r)
				if len(ret.Results) == 1 && n > 1 {
					// return f(): each of f's results.
					call, ok := ast.Unparen(r).(*ast.CallExpr)
					if !ok {
						break
					}
					for j := range n {
						fl.addFlows(fn, j, fl.resultOrigins(call, j))
					}
					break
				}
				fl.addFlows(fn, i, os)
			}
		}
	}
}

// addFlows adds a flow to fn's summary for each origin of its result i.
func (fl *flow) addFlows(fn *types.Func, i int, os []origin) {
	for _, o := range os {
		fl.addFlow(fn, Flow{Result: i, RPath: o.path, Param: o.t.param, PPath: o.t.ppath, File: o.t.file, Stdout: o.t.stdout, Read: o.t.read, Call: o.call, Loop: o.loop, Trail: o.trail})
	}
}

// resultOrigins returns what result index of call may hold, where call
// is returned whole by a function of as many results: a file that
// package os opens, or what the callee's summary says.
func (fl *flow) resultOrigins(call *ast.CallExpr, index int) []origin {
	if t := fl.c.pass.TypesInfo.TypeOf(call); t != nil {
		if tu, ok := t.(*types.Tuple); ok && index < tu.Len() && isOSFile(tu.At(index).Type()) {
			if fn, ok := typeutil.Callee(fl.c.pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "os" {
				// return os.Create(name): a file of the program's own,
				// which os.Open opens for reading only.
				return []origin{{t: target{param: -1, file: "a file from os." + fn.Name(), read: fn.Name() == "Open"}}}
			}
		}
	}
	return fl.callOrigins(call, index)
}

// addSink adds s to fn's summary, or makes a sink it has per record.
func (fl *flow) addSink(fn *types.Func, s Sink) {
	f := fl.own(fn)
	var changed bool
	f.Sinks, changed = mergeTrails(f.Sinks, s, func(a Sink) bool {
		return a.Param == s.Param && a.Path == s.Path && a.Call == s.Call && a.File == s.File && a.Method == s.Method
	}, func(a Sink) Trail { return a.Trail }, func(a Sink) int { return rank(a.Loop, a.Trail) })
	fl.changed = fl.changed || changed
}

// addFlow adds x to fn's summary, or makes a flow it has per record.
func (fl *flow) addFlow(fn *types.Func, x Flow) {
	f := fl.own(fn)
	var changed bool
	f.Flows, changed = mergeTrails(f.Flows, x, func(a Flow) bool {
		return a.Result == x.Result && a.RPath == x.RPath && a.Param == x.Param && a.PPath == x.PPath && a.File == x.File && a.Call == x.Call
	}, func(a Flow) Trail { return a.Trail }, func(a Flow) int { return rank(a.Loop, a.Trail) })
	fl.changed = fl.changed || changed
}

// rank orders the trails of one sink or flow for the message: per
// record first, then a write in a loop of its own function (a table's
// cells before its header).
func rank(loop bool, t Trail) int {
	r := 0
	if loop {
		r += 2
	}
	if t.Loop {
		r++
	}
	return r
}

// own returns the summary of fn, a function of the package, made empty
// if it has none.
func (fl *flow) own(fn *types.Func) *funcFact {
	f := fl.funcs[fn]
	if f == nil {
		f = &funcFact{}
		fl.funcs[fn] = f
	}
	return f
}

// callArg returns the argument call gives sig's parameter i, the
// receiver first; nil for none or a variadic one.
func callArg(call *ast.CallExpr, sig *types.Signature, i int) ast.Expr {
	if sig.Recv() != nil {
		if i == 0 {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				return sel.X
			}
			return nil
		}
		i--
	}
	if i >= 0 && i < len(call.Args) && !(sig.Variadic() && i >= sig.Params().Len()-1) {
		return call.Args[i]
	}
	return nil
}

// summary returns fn's summary: this package's, or its fact.
func (fl *flow) summary(fn *types.Func) *funcFact {
	if fn.Pkg() == fl.c.pass.Pkg {
		return fl.funcs[fn]
	}
	f := new(funcFact)
	if fl.c.pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}

// funcValue returns the func value call calls, if it calls a variable
// or field of func type rather than a declared function.
func (fl *flow) funcValue(call *ast.CallExpr) (ast.Expr, bool) {
	info := fl.c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return nil, false
	}
	switch callee := typeutil.Callee(info, call).(type) {
	case *types.Func, *types.Builtin:
		return nil, false
	case *types.Var, nil:
		_ = callee
		return ast.Unparen(call.Fun), true
	}
	return nil, false
}

// through is one writer a call writes through: x at path, or the func
// value at path called.
type through struct {
	x     ast.Expr
	path  string
	call  bool
	loop  bool       // the callee writes per record
	trail Trail      // the write, for a direct write or a callee's sink
	step  *Step      // the callee, for a callee's sink
	field *types.Var // the field path names, if it is one field
	fixed *target    // the file written, for fmt.Print and a sink of a file
}

// eventsOf returns the writes s makes, to files and to its function's
// parameters.
func (fl *flow) eventsOf(s *site) []event {
	if evs, ok := fl.events[s]; ok || fl.busy[s] {
		return evs
	}
	fl.busy[s] = true
	var evs []event
	for _, th := range fl.throughs(s) {
		if th.fixed != nil {
			ev := event{t: *th.fixed, loop: th.loop || s.loop != nil, trail: withStep(th.step, th.trail), via: th.step != nil}
			if th.step == nil {
				ev.trail.Loop = s.loop != nil
			}
			evs = append(evs, ev)
			continue
		}
		os := fl.originsOf(th.x)
		if th.field != nil && !th.call && len(os) == 0 && fl.unknown(th.x) {
			// The field may hold a file its package stores in it.
			os = shiftPath(fl.fieldOrigins(th.field), th.path)
		}
		for _, o := range os {
			ev, ok := match(th, o)
			if !ok || (ev.t.param < 0 && ev.t.read) {
				// A file open for reading only takes no write: os.Stdin
				// where a function returns it or standard output.
				continue
			}
			perIter := s.loop != nil && !(ev.t.param < 0 && ev.t.decl.IsValid() && within(ev.t.decl, s.loop))
			ev.loop = ev.loop || perIter
			if th.step == nil && !th.call {
				ev.trail.Loop = s.loop != nil
			}
			if ev.t.param >= 0 && ev.t.ppath == "" && ev.loop {
				if v := fl.param(s.decl, ev.t.param); v != nil && isOSFile(v.Type()) {
					// Per record to a file the function is given: reported
					// here, as the direct check reports its writes.
					ev.t = target{param: -1, file: v.Name()}
				}
			}
			evs = append(evs, ev)
		}
	}
	delete(fl.busy, s)
	fl.events[s] = evs
	return evs
}

// match returns the write that going through th to what o holds makes.
func match(th through, o origin) (event, bool) {
	switch {
	case o.t.param >= 0 && !o.call:
		// A parameter's value: the writer is in it, where th says.
		rest, ok := cutPath(th.path, o.path)
		if !ok {
			return event{}, false
		}
		t := o.t
		t.ppath = joinPath(t.ppath, rest)
		if th.call {
			// A call of a parameter's func value is a sink of its own
			// (summarize); through a callee's call sink it is one too,
			// but the callee's trail does not say what the value writes.
			return event{}, false
		}
		return event{t: t, loop: th.loop, trail: withStep(th.step, th.trail), via: th.step != nil}, true
	case o.path != th.path || o.call != th.call:
		return event{}, false
	case th.call:
		return event{t: o.t, loop: th.loop || o.loop, trail: withStep(th.step, o.trail), via: true}, true
	default:
		return event{t: o.t, loop: th.loop, trail: withStep(th.step, th.trail), via: th.step != nil}, true
	}
}

// withStep returns t with step first on its way, if there is one.
func withStep(step *Step, t Trail) Trail {
	if step == nil {
		return t
	}
	t.Via = append([]Step{*step}, t.Via...)
	return t
}

// maxPathFields bounds a field path: a value reached through more fields
// (a list walked by n = n.next, a tree of nested structs) is not
// followed, so that paths that grow at each round of a function's
// summary (next.next.next...) cannot keep it from ending. Four fields
// cover the writers real modules keep (a struct in a struct in a field,
// behind a bufio.Writer's #buf); bench/check-recall.sh measures what
// the bounds cost in findings and time.
const maxPathFields = 4

// deepPath stands for every path longer than maxPathFields: it matches
// no prefix but the empty one, so what it holds is never reached
// through a field.
const deepPath = "…"

// cutPath returns what path has after prefix, if prefix is one of its
// leading fields.
func cutPath(path, prefix string) (string, bool) {
	switch {
	case prefix == deepPath:
		return "", false
	case prefix == "":
		return path, true
	case path == prefix:
		return "", true
	case strings.HasPrefix(path, prefix+"."):
		return path[len(prefix)+1:], true
	}
	return "", false
}

// joinPath returns the field path a.b, or deepPath where it has more
// than maxPathFields fields.
func joinPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case a == deepPath || b == deepPath:
		return deepPath
	}
	p := a + "." + b
	if strings.Count(p, ".") >= maxPathFields {
		return deepPath
	}
	return p
}

// dotPath returns path as a field selector: ".w", or "" for none.
func dotPath(path string) string {
	var parts []string
	for _, p := range strings.Split(path, ".") {
		if p != "" && p != bufPath {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "." + strings.Join(parts, ".")
}

// writeFuncs are the functions that write their first argument once.
var writeFuncs = map[string]bool{
	"fmt.Fprint": true, "fmt.Fprintf": true, "fmt.Fprintln": true,
	"io.WriteString": true, "encoding/binary.Write": true,
}

// writeMethods are the methods of an io.Writer (or *os.File) that write
// it once.
var writeMethods = map[string]bool{"Write": true, "WriteString": true, "WriteByte": true, "WriteRune": true}

// throughs returns the writers call writes through.
func (fl *flow) throughs(s *site) []through {
	call := s.call
	info := fl.c.pass.TypesInfo
	here := func(what string, flush bool) Trail {
		return Trail{What: what, At: fl.position(call.Pos()), Pkg: fl.c.pass.Pkg.Path(), Flush: flush}
	}
	if x, ok := fl.funcValue(call); ok {
		if s.deferred {
			return nil // it runs at the function's end, or concurrently
		}
		return append([]through{{x: x, call: true}}, fl.valueThroughs(call, x)...)
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	arg := func(i int) ast.Expr { return callArg(call, sig, i) }
	key := fn.Pkg().Path() + "." + fn.Name()
	if key == "fmt.Print" || key == "fmt.Printf" || key == "fmt.Println" {
		return []through{{fixed: &target{param: -1, file: "os.Stdout", stdout: true}, trail: here(key, false)}}
	}
	if sig.Recv() == nil && writeFuncs[key] && len(call.Args) > 0 {
		return []through{{x: call.Args[0], trail: here(fn.Pkg().Name()+"."+fn.Name(), false)}}
	}
	if key == "io.Copy" && len(call.Args) == 2 && inMemoryReader(info.TypeOf(call.Args[1])) {
		// From memory io.Copy is the reader's WriteTo: one write of
		// what it holds, a record's worth when it is filled per record.
		return []through{{x: call.Args[0], trail: here("io.Copy", false)}}
	}
	if sig.Recv() != nil {
		recv := arg(0)
		rt := sig.Recv().Type()
		named := namedOf(rt)
		switch {
		case recv == nil:
		case writeMethods[fn.Name()] && (types.IsInterface(rt) || isOSFile(rt)):
			what := fn.Name()
			if named != nil {
				what = named.Obj().Name() + "." + what
			}
			return []through{{x: recv, trail: here(what, false)}}
		case named == nil:
		case fn.Name() == "Encode" && (isNamed(named, "encoding/json", "Encoder") || isNamed(named, "encoding/gob", "Encoder") || isNamed(named, "encoding/xml", "Encoder")),
			strings.HasPrefix(fn.Name(), "Print") && isNamed(named, "log", "Logger"):
			return []through{{x: recv, trail: here(named.Obj().Pkg().Name()+"."+named.Obj().Name()+"."+fn.Name(), false)}}
		case fn.Name() == "WriteTo" && (isNamed(named, "net", "Buffers") || isNamed(named, "bytes", "Buffer") || isNamed(named, "bytes", "Reader") || isNamed(named, "strings", "Reader")):
			// What it holds, written to its argument in a call (net.Buffers:
			// a call per buffer, or one writev).
			if w := arg(1); w != nil {
				return []through{{x: w, trail: here(named.Obj().Pkg().Name()+"."+named.Obj().Name()+".WriteTo", false)}}
			}
		case fn.Name() == "Flush" && isBufWriter(named):
			if s.loop == nil && fl.madeHere(recv, call) {
				// A buffer made in this call and flushed once holds what
				// the call writes, not one record.
				return nil
			}
			return []through{{x: recv, path: bufPath, trail: here(named.Obj().Pkg().Name()+"."+named.Obj().Name()+".Flush", true)}}
		}
	}
	if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return fl.dispatchThroughs(call, fn)
	}
	sum := fl.summary(fn)
	if sum == nil {
		return nil
	}
	ths := fl.variadicThroughs(call, fn, sum)
	for _, sk := range sum.Sinks {
		if sk.Method != "" {
			ths = append(ths, fl.methodThroughs(call, fn, sk)...)
			continue
		}
		if sk.Param < 0 {
			step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn)}
			ths = append(ths, through{fixed: &target{param: -1, file: sk.File, stdout: sk.Stdout}, loop: sk.Loop, trail: sk.Trail, step: step})
			continue
		}
		x := arg(sk.Param)
		if x == nil {
			continue
		}
		step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn), Arg: paramName(sig, sk.Param) + dotPath(sk.Path)}
		ths = append(ths, through{x: x, path: sk.Path, call: sk.Call, loop: sk.Loop, trail: sk.Trail, step: step, field: fieldNamed(info.TypeOf(x), fn.Pkg(), sk.Path)})
	}
	return ths
}

// fieldNamed returns the field of t that path names, if path is one
// field's name.
func fieldNamed(t types.Type, pkg *types.Package, path string) *types.Var {
	if t == nil || path == "" || strings.Contains(path, ".") {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, path)
	f, _ := obj.(*types.Var)
	return f
}

// madeHere reports whether x is a variable declared in the innermost
// function that call is in.
func (fl *flow) madeHere(x ast.Expr, call *ast.CallExpr) bool {
	id := identOf(x)
	if id == nil {
		return false
	}
	v, ok := fl.c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if i := fl.litAt(call.Pos()); i >= 0 {
		return fl.lits[i].pos <= v.Pos() && v.Pos() < fl.lits[i].end
	}
	return v.Parent() != nil && v.Parent() != v.Pkg().Scope() && !isParam(fl, v)
}

// inMemoryReader reports whether t is a reader over memory whose WriteTo
// writes all it holds in one call: *bytes.Buffer, *bytes.Reader or
// *strings.Reader.
func inMemoryReader(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n := namedOf(p.Elem())
	return n != nil && (isNamed(n, "bytes", "Buffer") || isNamed(n, "bytes", "Reader") || isNamed(n, "strings", "Reader"))
}

// isBufWriter reports whether named is a buffered writer whose Flush
// writes what it holds: bufio's, csv's or stream's Writer.
func isBufWriter(named *types.Named) bool {
	return isNamed(named, "bufio", "Writer") || isNamed(named, "encoding/csv", "Writer") || isNamed(named, streamPath, "Writer")
}

// funcName returns fn's name as a trail shows it: "report",
// "(*Writer).Write".
func funcName(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	name := "?"
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name = n.Obj().Name()
	}
	return "(" + star + name + ")." + fn.Name()
}

// paramName returns the name of sig's parameter i, the receiver first.
func paramName(sig *types.Signature, i int) string {
	var v *types.Var
	if sig.Recv() != nil {
		if i == 0 {
			v = sig.Recv()
		}
		i--
	}
	if v == nil && i >= 0 && i < sig.Params().Len() {
		v = sig.Params().At(i)
	}
	if v == nil || v.Name() == "" || v.Name() == "_" {
		return fmt.Sprintf("#%d", i)
	}
	return v.Name()
}

// position returns pos as file:line, the file's base name.
func (fl *flow) position(pos token.Pos) string {
	p := fl.c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// originsOf returns what e may hold.
func (fl *flow) originsOf(e ast.Expr) []origin {
	if e == nil {
		return nil
	}
	if os, ok := fl.origins[e]; ok || fl.busy[e] {
		return os
	}
	fl.busy[e] = true
	os := distinctOrigins(fl.computeOrigins(e))
	delete(fl.busy, e)
	fl.origins[e] = os
	return os
}

// maxOrigins bounds what one expression may hold. A variable's origins
// are the union of its assignments', so in a long function of many
// assignments between variables (a parser's functions of a thousand
// lines) copies of one origin multiply; they are merged
// (distinctOrigins), and past the bound the rest are not followed: a
// finding missed, never a check that does not end (bench/check-recall.sh
// runs it on such modules).
const maxOrigins = 64

// distinctOrigins returns os with one origin per place, target, kind
// and write reached (the one of higher rank), at most maxOrigins of
// them.
func distinctOrigins(os []origin) []origin {
	if len(os) < 2 {
		return os
	}
	type key struct {
		path     string
		t        target
		call     bool
		what, at string // the write the trail reaches: each is reported
	}
	at := make(map[key]int, len(os))
	out := os[:0:0]
	for _, o := range os {
		k := key{o.path, o.t, o.call, o.trail.What, o.trail.key()}
		if i, ok := at[k]; ok {
			if rank(o.loop, o.trail) > rank(out[i].loop, out[i].trail) {
				out[i] = o
			}
			continue
		}
		if len(out) == maxOrigins {
			continue
		}
		at[k] = len(out)
		out = append(out, o)
	}
	return out
}

func (fl *flow) computeOrigins(e ast.Expr) []origin {
	info := fl.c.pass.TypesInfo
	e = ast.Unparen(e)
	if fl.c.isStderr(e) {
		return nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		if fn, ok := info.Uses[e].(*types.Func); ok {
			return fl.funcOrigins(fn)
		}
		return fl.varOrigins(e)
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok && info.Selections[e] == nil {
			return fl.funcOrigins(fn) // a qualified function: pkg.F
		}
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() != types.FieldVal {
				return nil // a method value
			}
			f := sel.Obj().(*types.Var)
			if fl.childFields[f] {
				return nil // shared with a child process (child.go)
			}
			os := stripField(fl.originsOf(e.X), f.Name())
			if len(os) == 0 && fl.unknown(e.X) {
				os = fl.fieldOrigins(f)
			}
			return os
		}
		// A qualified identifier.
		v, ok := info.Uses[e.Sel].(*types.Var)
		if !ok {
			return nil
		}
		if v.Pkg() != nil && v.Pkg().Path() == "os" && v.Name() == "Stdout" {
			return []origin{{t: target{param: -1, file: "os.Stdout", stdout: true}}}
		}
		if v.Pkg() == fl.c.pass.Pkg {
			return fl.varOrigins(e.Sel)
		}
		if os := fl.importedVarOrigins(v); os != nil {
			return os
		}
		if isOSFile(v.Type()) {
			read := v.Pkg() != nil && v.Pkg().Path() == "os" && v.Name() == "Stdin"
			return []origin{{t: target{param: -1, file: exprString(e), read: read}}}
		}
		return nil
	case *ast.StarExpr:
		return fl.originsOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return fl.originsOf(e.X)
		}
		return nil
	case *ast.TypeAssertExpr:
		return fl.originsOf(e.X)
	case *ast.CompositeLit:
		var os []origin
		fl.eachField(e, func(f *types.Var, v ast.Expr) {
			os = append(os, shiftPath(fl.originsOf(v), f.Name())...)
		})
		return os
	case *ast.FuncLit:
		var os []origin
		for _, s := range fl.byLit[e] {
			if s.excluded {
				continue
			}
			for _, ev := range fl.eventsOf(s) {
				if s.callOnce && !ev.loop {
					continue
				}
				os = append(os, origin{t: ev.t, call: true, loop: ev.loop, trail: ev.trail})
			}
		}
		return os
	case *ast.CallExpr:
		return fl.callOrigins(e, 0)
	}
	if t := info.TypeOf(e); t != nil && isOSFile(t) {
		return []origin{{t: target{param: -1, file: exprString(e)}}}
	}
	return nil
}

// funcOrigins returns what a declared function, taken as a func value
// (print = printString, a callback passed by name), writes when called:
// the files its summary says it writes once per call. What it writes
// through its parameters depends on the arguments of a call this does not
// see, so it is left out.
func (fl *flow) funcOrigins(fn *types.Func) []origin {
	if fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return nil
	}
	sum := fl.summary(fn)
	if sum == nil {
		return nil
	}
	var os []origin
	step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn)}
	for _, sk := range sum.Sinks {
		if sk.Param < 0 && !sk.Call {
			os = append(os, origin{t: target{param: -1, file: sk.File, stdout: sk.Stdout}, call: true, loop: sk.Loop, trail: withStep(step, sk.Trail)})
		}
	}
	return os
}

// callOrigins returns what result index of call may hold.
func (fl *flow) callOrigins(call *ast.CallExpr, index int) []origin {
	info := fl.c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 && index == 0 {
			return fl.originsOf(call.Args[0]) // a conversion: io.Writer(f)
		}
		return nil
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil && len(call.Args) > 0 && index == 0 {
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "encoding/json.NewEncoder", "encoding/gob.NewEncoder", "encoding/xml.NewEncoder", "log.New":
			return fl.originsOf(call.Args[0]) // writes its writer per call
		case "text/tabwriter.NewWriter":
			// Its Flush writes each cell of what it holds by itself: a
			// write per cell, so a row written to it costs what a row
			// written to its writer does.
			return fl.originsOf(call.Args[0])
		case "bufio.NewWriter", "bufio.NewWriterSize", "encoding/csv.NewWriter", streamPath + ".NewWriter":
			return shiftPath(fl.originsOf(call.Args[0]), bufPath)
		}
	}
	var os []origin
	if t := info.TypeOf(call); t != nil && isOSFile(t) {
		os = append(os, origin{t: target{param: -1, file: exprString(call)}})
	}
	sum := fl.summary(fn)
	if sum == nil {
		return os
	}
	arg := func(i int) ast.Expr { return callArg(call, sig, i) }
	for _, f := range sum.Flows {
		if f.Result != index {
			continue
		}
		if f.Param < 0 {
			os = append(os, origin{path: f.RPath, t: target{param: -1, file: f.File, stdout: f.Stdout, read: f.Read}, call: f.Call, loop: f.Loop, trail: f.Trail})
			continue
		}
		step := &Step{Pkg: fn.Pkg().Name(), Func: funcName(fn), Arg: paramName(sig, f.Param) + dotPath(f.PPath)}
		for _, o := range fl.originsOf(arg(f.Param)) {
			switch {
			case f.Call && !o.call && o.t.param < 0 && o.path == f.PPath:
				// The result is a func value that writes to the file.
				os = append(os, origin{path: f.RPath, t: o.t, call: true, loop: f.Loop, trail: withStep(step, f.Trail)})
			case f.Call && !o.call && o.t.param >= 0:
				if rest, ok := cutPath(f.PPath, o.path); ok {
					t := o.t
					t.ppath = joinPath(t.ppath, rest)
					os = append(os, origin{path: f.RPath, t: t, call: true, loop: f.Loop, trail: withStep(step, f.Trail)})
				}
			case !f.Call:
				if o.t.param >= 0 && !o.call {
					if rest, ok := cutPath(f.PPath, o.path); ok {
						t := o.t
						t.ppath = joinPath(t.ppath, rest)
						os = append(os, origin{path: f.RPath, t: t})
					}
					continue
				}
				if rest, ok := cutPath(o.path, f.PPath); ok {
					o.path = joinPath(f.RPath, rest)
					os = append(os, o)
				}
			}
		}
	}
	return fl.setterStores(call, fn, sum, index, os)
}

// varOrigins returns what the variable id names may hold where id is.
func (fl *flow) varOrigins(id *ast.Ident) []origin {
	v, ok := fl.c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil {
		return nil
	}
	as := fl.assigns[v]
	local := v.Parent() != v.Pkg().Scope()
	// After an assignment at the top level of its function's body, a
	// local variable's earlier values are gone; a function literal may
	// run later, so it sees them all.
	var kill token.Pos
	if local && !fl.inLit(id) {
		for _, a := range as {
			if a.kill && a.path == "" && a.pos <= id.Pos() && a.pos > kill {
				kill = a.pos
			}
		}
	}
	var os []origin
	other := false // some value holds no file
	i, param := fl.params[v]
	if param && !kill.IsValid() {
		os = append(os, origin{t: target{param: i}})
	}
	file := isOSFile(v.Type()) && !param
	if file && len(as) == 0 {
		// A file the function is given in a way not followed: a range
		// variable, a result of a call of several results.
		os = append(os, origin{t: target{param: -1, file: id.Name}})
	}
	for _, a := range as {
		if a.pos < kill {
			continue
		}
		var vs []origin
		switch call, ok := ast.Unparen(a.value).(*ast.CallExpr); {
		case a.value == nil:
		case ok && a.path != "":
			// x.f, err = os.Create(name): a file stored in a field.
			vs = fl.resultOrigins(call, a.index)
		case ok && a.index > 0:
			vs = fl.callOrigins(call, a.index)
		case ok:
			vs = fl.callOrigins(call, 0)
		case a.index == 0:
			vs = fl.originsOf(a.value)
		}
		if file && a.path == "" && len(vs) == 0 && (a.value == nil || !fl.c.isStderr(a.value)) {
			// f, err := os.Create(name): a file of the program's own.
			vs = []origin{{t: target{param: -1, file: id.Name}}}
		}
		if a.path == "" && types.IsInterface(v.Type()) && (a.value == nil || fl.otherThanFile(a.value, a.index, vs)) {
			other = true
		}
		os = append(os, shiftPath(vs, a.path)...)
	}
	os = append(os, fl.storedOrigins(v)...)
	if other {
		// Some value is not a file (a strings.Builder, a bufio.Writer on
		// some path, one not followed): the variable is not taken for a
		// file, as the direct check does not take it.
		os = slices.DeleteFunc(os, func(o origin) bool { return o.path == "" })
	}
	if !local {
		return os
	}
	for i := range os {
		if os[i].t.param < 0 && !os[i].t.decl.IsValid() && !os[i].t.stdout {
			os[i].t.decl = v.Pos() // a file per iteration of a loop it is declared in
		}
	}
	return os
}

// otherThanFile reports whether value, of which os are the origins, is
// not a file: of a concrete type other than *os.File, or with no origin
// of its own (a call not followed).
func (fl *flow) otherThanFile(value ast.Expr, index int, os []origin) bool {
	if fl.c.isStderr(value) {
		return false
	}
	t := fl.c.pass.TypesInfo.TypeOf(value)
	if tu, ok := t.(*types.Tuple); ok {
		t = nil
		if index < tu.Len() {
			t = tu.At(index).Type()
		}
	}
	if t != nil && isNil(t) {
		return false // the zero value: nothing to write to
	}
	if t != nil && !types.IsInterface(t) && !isOSFile(t) {
		return true
	}
	return !hasPath(os, "")
}

// hasPath reports whether one of os is at path.
func hasPath(os []origin, path string) bool {
	for _, o := range os {
		if o.path == path {
			return true
		}
	}
	return false
}

// isParam reports whether v is a parameter of one of the package's
// function declarations.
func isParam(fl *flow, v *types.Var) bool {
	_, ok := fl.params[v]
	return ok
}

// inLit reports whether the identifier is inside a function literal.
func (fl *flow) inLit(id *ast.Ident) bool {
	return fl.litAt(id.Pos()) >= 0
}

// litAt returns the index in fl.lits of the innermost function literal
// pos is in, or -1.
func (fl *flow) litAt(pos token.Pos) int {
	i := sort.Search(len(fl.lits), func(i int) bool { return fl.lits[i].pos > pos }) - 1
	for i >= 0 && pos >= fl.lits[i].end {
		i = fl.lits[i].parent
	}
	return i
}

// unknown reports whether what x holds is not known from this package:
// not a variable of its functions, a value it builds or a parameter.
// Then a field of x holds what its package stores in the field.
func (fl *flow) unknown(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := fl.c.pass.TypesInfo.Uses[x].(*types.Var)
		return !ok || (len(fl.assigns[v]) == 0 && !isParam(fl, v))
	case *ast.UnaryExpr:
		return fl.unknown(x.X)
	case *ast.CompositeLit:
		return false
	}
	return true
}

// param returns the variable of parameter i of decl, the receiver first.
func (fl *flow) param(decl *ast.FuncDecl, i int) *types.Var {
	fn := fl.decls[decl]
	if fn == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		if i == 0 {
			return sig.Recv()
		}
		i--
	}
	if i >= 0 && i < sig.Params().Len() {
		return sig.Params().At(i)
	}
	return nil
}

// fieldOrigins returns the files field f may hold, as the package that
// declares it stores them.
func (fl *flow) fieldOrigins(f *types.Var) []origin {
	if f.Pkg() != fl.c.pass.Pkg {
		ff := new(fieldFact)
		if f.Pkg() != nil && fl.c.pass.ImportObjectFact(f, ff) {
			return []origin{{t: target{param: -1, file: ff.File, stdout: ff.Stdout}}}
		}
		return nil
	}
	if fl.busy[f] {
		return nil
	}
	fl.busy[f] = true
	defer delete(fl.busy, f)
	var os []origin
	for _, v := range fl.fields[f] {
		for _, o := range fl.originsOf(v) {
			if o.t.param < 0 && o.path == "" && !o.call {
				o.t.decl = token.NoPos // stored: it outlives the loop that opens it
				os = append(os, o)
			}
		}
	}
	return os
}

// exportFields exports a fact for each field of the package that may hold
// a file.
func (fl *flow) exportFields() {
	for f := range fl.fields {
		if !f.Exported() {
			continue // named only in its package
		}
		for _, o := range fl.fieldOrigins(f) {
			if o.t.read {
				continue
			}
			fl.c.pass.ExportObjectFact(f, &fieldFact{File: o.t.file, Stdout: o.t.stdout})
			break
		}
	}
}

// stripField returns the origins of x.f given those of x.
func stripField(os []origin, f string) []origin {
	var out []origin
	for _, o := range os {
		if o.t.param >= 0 && !o.call && o.path == "" {
			o.t.ppath = joinPath(o.t.ppath, f)
			out = append(out, o)
			continue
		}
		if rest, ok := cutPath(o.path, f); ok && o.path != "" {
			o.path = rest
			out = append(out, o)
		}
	}
	return out
}

// shiftPath returns the origins of a value that holds os at field path p.
func shiftPath(os []origin, p string) []origin {
	if p == "" {
		return os
	}
	out := make([]origin, len(os))
	for i, o := range os {
		o.path = joinPath(p, o.path)
		out[i] = o
	}
	return out
}

// report reports every per-record write to a file the direct check does
// not, once per write reached: a call that reaches several writes (an
// Encoder that may be a CSV, gob or JSON one) is reported for each, and
// a write that may go to several files names them all.
func (fl *flow) report() {
	fl.origins, fl.events, fl.busy = map[ast.Expr][]origin{}, map[*site][]event{}, map[any]bool{}
	seen := map[string]bool{}
	for call := range fl.direct {
		seen[fl.c.pass.Pkg.Path()+" "+fl.position(call.Pos())] = true
	}
	for _, s := range fl.sites {
		if s.excluded || fl.direct[s.call] || fl.c.skipped(s.call) {
			continue
		}
		var groups [][]event // the events of each write, in the order found
		for _, ev := range fl.eventsOf(s) {
			if ev.t.param >= 0 || !ev.loop {
				continue
			}
			// A write the direct check reports, or that a call of the
			// function literal it is in was reported for, is not
			// reported again.
			key := ev.trail.key() + " " + ev.t.file
			if (seen[key] && s.lit != nil) || (seen[ev.trail.key()] && !ev.trail.Flush) {
				continue
			}
			i := slices.IndexFunc(groups, func(g []event) bool {
				return g[0].trail.key() == ev.trail.key() && g[0].trail.What == ev.trail.What && g[0].trail.Flush == ev.trail.Flush
			})
			if i < 0 {
				groups = append(groups, nil)
				i = len(groups) - 1
			}
			groups[i] = append(groups[i], ev)
		}
		for _, g := range groups {
			for _, ev := range g {
				seen[ev.trail.key()+" "+ev.t.file] = true
			}
		}
		// One finding per call, kind and files: the writes a call
		// reaches to the same files are one fix (a buffer under the
		// writer), however many formats or branches end in them; a
		// per-record Flush, or writes to other files, are another.
		type kind struct {
			flush bool
			files string
		}
		var kinds []kind
		byKind := map[kind][][]event{}
		for _, g := range groups {
			k := kind{g[0].trail.Flush, fileLabel(g)}
			if byKind[k] == nil {
				kinds = append(kinds, k)
			}
			byKind[k] = append(byKind[k], g)
		}
		for _, k := range kinds {
			fl.c.pass.Report(analysis.Diagnostic{Pos: s.call.Pos(), End: s.call.End(), Category: "per-record", Message: fl.message(byKind[k])})
		}
	}
}

// fileLabel names the files a write may go to: "os.Stdout", "f",
// "os.Stdout or a file from os.Create"; standard output first.
func fileLabel(evs []event) string {
	var names []string
	for _, ev := range evs {
		if !slices.Contains(names, ev.t.file) {
			names = append(names, ev.t.file)
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return names[i] == "os.Stdout" && names[j] != "os.Stdout" })
	return strings.Join(names, " or ")
}

// message says what the writes of groups (each one write's events, one
// per file it may go to) cost and the one thing that changes them:
// -stdout when every file is standard output, -files when one is not
// (it buffers them all). The first write is named with its chain, the
// others after it.
func (fl *flow) message(groups [][]event) string {
	evs := slices.Concat(groups...)
	ev := evs[0]
	var chain []string
	for _, st := range ev.trail.Via {
		name := st.Func
		if st.Pkg != fl.c.pass.Pkg.Name() {
			name = qualify(st.Pkg, st.Func)
		}
		chain = append(chain, name+"("+st.Arg+")")
	}
	via := ""
	if len(chain) > 0 {
		via = " via " + strings.Join(chain, " -> ")
	}
	files := fileLabel(evs)
	what := ev.trail.What + " (" + ev.trail.At + ")"
	also := ""
	if len(groups) > 1 {
		var more []string
		for _, g := range groups[1:] {
			more = append(more, g[0].trail.What+" ("+g[0].trail.At+")")
		}
		also = " (as do " + strings.Join(more, ", ") + ")"
	}
	if ev.trail.Flush {
		return fmt.Sprintf("per-record Flush of a buffer over %s%s: %s writes once per record%s, which no stdiobuf build flag changes; flush once after the loop", files, via, what, also)
	}
	hint := buildHint("os.Stdout")
	for _, e := range evs {
		if !e.t.stdout {
			hint = buildHint(e.t.file)
			break
		}
	}
	return fmt.Sprintf("per-record write to %s%s: %s makes one system call per record%s; write through a bufio.Writer flushed on every path, %s", files, via, what, also, hint)
}

// qualify returns a function's name with its package: "benchfmt.report",
// "(*benchfmt.Writer).Write".
func qualify(pkg, name string) string {
	if strings.HasPrefix(name, "(*") {
		return "(*" + pkg + "." + name[2:]
	}
	if strings.HasPrefix(name, "(") {
		return "(" + pkg + "." + name[1:]
	}
	return pkg + "." + name
}
