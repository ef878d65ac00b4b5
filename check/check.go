// Package check is a go/analysis analyzer that finds where a Go program
// pays one system call per record on an *os.File, and where its buffered
// streams lose or hide what they hold.
//
// It reports:
//
//   - per-record writes inside a loop to an *os.File (os.Stdout and
//     os.Stderr included): fmt.Fprint, Fprintf and Fprintln with an
//     *os.File, fmt.Print, Printf and Println (they write to os.Stdout),
//     File.Write and File.WriteString, io.WriteString with an *os.File, a
//     json or gob Encoder over an *os.File, and log's Print functions when
//     the package sets log's output to an *os.File or the Logger is
//     log.New over one;
//   - per-record reads inside a loop from an *os.File: fmt.Scan, Scanf,
//     Scanln (they read os.Stdin), fmt.Fscan, Fscanf, Fscanln and
//     binary.Read with an *os.File, and File.Read or io.ReadFull into a
//     buffer of a constant size under 4096 bytes;
//   - a bufio.Writer (or stream.Writer) held in a local variable that has
//     been written to and reaches a return or an os.Exit on some path
//     without a Flush;
//   - a `for sc.Scan()` loop over a bufio.Scanner (or stream.Scanner)
//     whose Err is never called in the function.
//
// Test files, generated files and unexported functions the package never
// names are not reported: a test's output is not the program's,
// generated code is fixed in its generator, and an unused function is
// dead code.
//
// An *os.File is an expression of that static type, or a local variable
// of interface type every assignment of which is one. A call is per
// record when it runs once per iteration of a loop of its function; it is
// not when it is in the body of an if whose condition looks at an error
// or is false (a false constant, or a boolean the program never sets to
// true: dead.go), that counts an error, or that writes out a buffer of
// the program's own when it is full, in a block that ends by leaving the
// loop (it runs once), in a loop that runs a constant number of times up
// to 16 or per event (a select over several channels, a process started
// per iteration: events.go), or outside any loop; nor is a write to a
// file variable declared in the loop (a file per iteration), nor a write
// or read through a field the package binds to a file for a span of
// statements and hands to the child processes it starts (a shell's
// redirection: child.go). Nothing
// that buffers is reported: bufio or stream over the file, io.Copy from
// a file, a csv.Writer, a Scanner, reads of 4096 bytes and more; a
// text/tabwriter.Writer does not buffer (it writes cell by cell). A
// writer that escapes the function (returned, stored, passed to a
// function other than fmt's and io's writing ones, used in a function
// literal) is not checked for Flush, nor is a return of an error; a
// Scanner over memory (strings.NewReader, bytes.NewReader) is not checked
// for Err.
//
// A write in another function counts: the file is followed into the
// functions it is passed to, the struct fields it is stored in and the
// closures and declared functions taken as values that write to it,
// into the program's own implementations of an interface whose method is
// called (dispatch.go), across packages by facts (flow.go), and the
// message names the chain of calls down to the write and every file the
// write may go to. A file open for reading only (os.Stdin, os.Open's)
// takes no write.
//
// Where the edit is safe, a diagnostic carries a suggested fix: a loop
// that writes to one file and does nothing else that could block, exit or
// observe the file gets the file wrapped in a bufio.Writer before the loop
// and flushed after it; a bufio.Writer over os.Stdout or os.Stderr that
// misses a Flush on a return gets `defer w.Flush()` after its creation.
// Elsewhere the message names the build-time alternative: stdiobuf build
// -stdout for standard output, -files for other files.
package check

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports per-record system calls on *os.File values, bufio
// Writers left without Flush and Scanner loops that never check Err.
var Analyzer = &analysis.Analyzer{
	Name:      "stdiobuf",
	Doc:       "report per-record system calls on *os.File, unflushed bufio.Writers and unchecked Scanner errors\n\nSee https://github.com/stdiobuf/stdiobuf/blob/main/docs/check.md.",
	URL:       "https://github.com/stdiobuf/stdiobuf/blob/main/docs/check.md",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(funcFact), new(fieldFact)},
}

// streamPath is the import path of package stream, whose Writer and
// Scanner are bufio's.
const streamPath = "github.com/stdiobuf/stdiobuf/stream"

func run(pass *analysis.Pass) (any, error) {
	if inGoroot(pass) {
		// The standard library's writes are known by name; go vet runs
		// the analyzer on it only for facts, which it needs none of.
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, assigns: collectAssigns(pass, ins), skip: map[any]bool{}, fixNames: map[ast.Node]map[string]bool{}}
	used := map[types.Object]bool{}
	for _, obj := range pass.TypesInfo.Uses {
		used[obj] = true
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && unused(pass, fn, used) {
				c.skip[fn] = true
			}
		}
		tf := pass.Fset.File(f.Pos())
		if strings.HasSuffix(tf.Name(), "_test.go") || ast.IsGenerated(f) {
			c.skip[tf] = true
		}
	}
	c.logToFile = c.logSetToFile(ins)
	c.dead = c.deadFlags(ins)
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if push && !c.skipped(n) {
			c.call(n.(*ast.CallExpr), stack)
		}
		return true
	})
	c.interprocedural(ins)
	c.reportLoops()
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(n ast.Node) {
		var body *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		if body == nil || c.skipped(n) {
			return
		}
		c.writersFlushed(body)
		c.scannerErrs(body)
	})
	return nil, nil
}

// checker holds what one pass has learnt of its package.
type checker struct {
	pass        *analysis.Pass
	assigns     map[types.Object]*assignments // every value given to each variable
	logToFile   bool                          // log.SetOutput is called, always with an *os.File
	loops       []*loopRecords                // loops with per-record writes, in source order
	skip        map[any]bool                  // test files (*token.File), generated ones and unused functions (*ast.FuncDecl), which are not reported
	fixNames    map[ast.Node]map[string]bool  // per block, the names the loop fixes declare in it
	dead        map[types.Object]bool         // booleans never set to true (deadFlags)
	procFuncs   map[*types.Func]bool          // functions that start a process (processFuncs), made when first needed
	procStmts   map[ast.Stmt]bool             // statements runsProcess has looked at
	params      map[*types.Var]paramOf        // the package's parameters (declParams), made when first needed
	closedFns   *deadness                     // the package's calls and closed functions (fixed.go), made when first needed
	raw         *bool                         // the package makes the terminal raw (makesRaw), found when first needed
	termStmts   map[ast.Stmt]bool             // statements readsTerminal has looked at
	childFields map[*types.Var]bool           // the package's fields bound per statement and shared with child processes (child.go)
}

// skipped reports whether n is in a file or function that is not
// reported.
func (c *checker) skipped(n ast.Node) bool {
	if c.skip[c.pass.Fset.File(n.Pos())] {
		return true
	}
	for fn := range c.skip {
		if fn, ok := fn.(*ast.FuncDecl); ok && fn.Pos() <= n.Pos() && n.End() <= fn.End() {
			return true
		}
	}
	return false
}

// unused reports whether fn is an unexported function, not a method,
// main or init, that the package never names: dead code kept for
// debugging, which makes no calls.
func unused(pass *analysis.Pass, fn *ast.FuncDecl, used map[types.Object]bool) bool {
	if fn.Recv != nil || fn.Name.IsExported() || fn.Name.Name == "main" || fn.Name.Name == "init" || fn.Name.Name == "_" {
		return false
	}
	obj := pass.TypesInfo.Defs[fn.Name]
	return obj != nil && !used[obj]
}

// assignments are the values a variable is given.
type assignments struct {
	local  bool       // declared by a var statement or := in a function
	values []ast.Expr // right-hand sides; nil for one that is not known (a, b := f())
}

// collectAssigns returns, for each variable the package assigns to, the
// values it is given by declarations and assignments.
func collectAssigns(pass *analysis.Pass, ins *inspector.Inspector) map[types.Object]*assignments {
	m := map[types.Object]*assignments{}
	add := func(id *ast.Ident, value ast.Expr, local bool) {
		obj := pass.TypesInfo.ObjectOf(id)
		if v, ok := obj.(*types.Var); !ok || v.IsField() {
			return
		}
		a := m[obj]
		if a == nil {
			a = &assignments{}
			m[obj] = a
		}
		if local && pass.TypesInfo.Defs[id] != nil {
			a.local = true
		}
		a.values = append(a.values, value)
	}
	ins.WithStack([]ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.UnaryExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		local := inFunc(stack)
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok || id.Name == "_" {
					continue
				}
				var value ast.Expr
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					value = n.Rhs[i]
				}
				add(id, value, local && n.Tok == token.DEFINE)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == "_" {
					continue
				}
				var value ast.Expr
				if len(n.Names) == len(n.Values) {
					value = n.Values[i]
				}
				if len(n.Values) == 0 {
					// The zero value: nil for an interface, which no
					// write reaches.
					obj := pass.TypesInfo.Defs[id]
					if obj == nil {
						continue
					}
					if m[obj] == nil {
						m[obj] = &assignments{}
					}
					m[obj].local = local
					continue
				}
				add(id, value, local)
			}
		case *ast.UnaryExpr:
			// &v: v may be set through the pointer.
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				add(id, nil, false)
			}
		}
		return true
	})
	return m
}

// inGoroot reports whether pass's package is in GOROOT: the standard
// library.
func inGoroot(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, filepath.Join(root, "src")+string(filepath.Separator))
}

// inFunc reports whether the innermost node of stack is inside a function.
func inFunc(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return true
		}
	}
	return false
}
