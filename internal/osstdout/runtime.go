package osstdout

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// An insertion is one statement -stdout adds to a function of package
// runtime, syscall, internal/poll or fmt, where the buffered standard output must be flushed
// before the program goes on (a panic about to print its message, a
// descriptor about to be replaced, ...). Package os's side of these hooks
// is std/zz_stdiobuf_hooks.go.
type insertion struct {
	fn   string // the function the statement goes into
	recv string // if fn is a method, the type T of its receiver *T
	file string // the file that declares fn, if other files declare it too
	// before names the function whose call statement the new statement
	// precedes, found at any depth of fn's body, which must hold
	// exactly one; "" puts the statement first in the body.
	before string
	// arg, with before, is the string literal the call's first
	// argument must be: it tells apart calls of one function.
	arg string
	// stmt is the source of the statements, made from fn's parameter
	// names (a method's receiver first); "" if fn lacks a parameter
	// they need.
	stmt func(params []string) string
	// each: fn is declared once per platform (syscall's generated
	// files) and every declaration gets the statement; otherwise the
	// package must declare it exactly once.
	each bool
}

// A hookKey tells apart the hooks of one function: its name (name), the
// file that declares it, if named, and the call a statement goes before.
type hookKey struct{ fn, file, before, arg string }

func (h insertion) hookKey() hookKey { return hookKey{h.key(), h.file, h.before, h.arg} }

// fixed is a statement that does not depend on the parameters.
func fixed(s string) func([]string) string { return func([]string) string { return s } }

// ifParam is `if PARAM == 1 { call }` for the parameter at index i: a
// call made only when the descriptor argument is standard output's.
func ifParam(i int, call string) func([]string) string {
	return func(p []string) string { return onParam(p, i, "if %s == 1 { "+call+" }") }
}

// onParam is format with the name of parameter i, or "" if there is no
// such parameter or it has no name.
func onParam(params []string, i int, format string) string {
	if i >= len(params) || params[i] == "_" {
		return ""
	}
	return fmt.Sprintf(format, params[i])
}

// insertions are the hooks, by package. The templates in runtime/ and
// syscall/ declare the functions the statements call.
var insertions = map[string][]insertion{
	"runtime": {
		// After the deferred calls and preprintpanics (which runs the
		// panic values' Error and String methods), before fatalpanic
		// prints the message and exits: ordinary Go code still runs
		// here, as traceAdvance does.
		{fn: "gopanic", before: "fatalpanic", stmt: fixed("stdioPanicking()")},
		// After the deferred calls of a Goexit; main's Goexit ends the
		// program without exit hooks.
		{fn: "Goexit", before: "goexit1", stmt: fixed("stdioGoexit()")},
		// A signal whose default action kills, and that the program
		// neither Notify'd nor ignored.
		{fn: "sighandler", file: "signal_unix.go", before: "dieFromSignal", stmt: func(p []string) string {
			return onParam(p, 0, "if stdioSignalDeath(%s) { return }")
		}},
		// A signal that ends the program with a goroutine dump: an
		// external SIGABRT defers the dump to the flush. Before
		// startpanic_m, which runs only when no dump is under way.
		{fn: "sighandler", file: "signal_unix.go", before: "startpanic_m", stmt: func(p []string) string {
			if len(p) < 3 || p[0] == "_" || p[1] == "_" || p[2] == "_" {
				return ""
			}
			return fmt.Sprintf("if stdioSignalAbort(%s, &sigctxt{%s, %s}) { return }", p[0], p[1], p[2])
		}},
		// The runtime's print and println, and fatal errors (concurrent
		// map writes), flush only where Go code may run (stdioCanFlush).
		{fn: "printlock", stmt: fixed("stdioBeforePrint()")},
		{fn: "fatal", stmt: fixed("stdioFatal()")},
		// syscall.Exit, which os.Exit calls after the exit hooks.
		{fn: "syscall_Exit", stmt: fixed("stdioExit()")},
		// The deadlock report, which checkdead makes where it runs no
		// Go code (on g0, sched.lock just released): the program lives
		// on until the bound's goroutine has written out what is
		// buffered, and checkdead takes sched.lock back for its caller.
		{fn: "checkdead", before: "fatal", arg: "all goroutines are asleep - deadlock!", stmt: fixed("if stdioDeadlockFlush() {\nlock(&sched.lock)\nreturn\n}")},
		// Windows' console control handler: an event the program does
		// not take ends it in Windows' default handler.
		{fn: "ctrlHandler", file: "os_windows.go", stmt: func(p []string) string {
			return onParam(p, 0, "stdioConsoleCtrl(%s)")
		}},
	},
	"syscall": {
		{fn: "Dup2", each: true, stmt: ifParam(1, "runtime_stdioFlush()")},
		{fn: "Dup3", each: true, stmt: ifParam(1, "runtime_stdioFlush()")},
		{fn: "Close", each: true, stmt: ifParam(0, "runtime_stdioTryFlush()")},
		{fn: "ForkExec", each: true, stmt: fixed("runtime_stdioFlush()")},
		{fn: "StartProcess", each: true, stmt: fixed("runtime_stdioFlush()")},
		// Flushed, then a fatal signal kills at once until the execve
		// fails and Exec returns.
		{fn: "Exec", each: true, stmt: fixed("runtime_stdioBeforeExec()\ndefer runtime_stdioAfterExec()")},
		// A signal sent: whoever gets it may look at standard output
		// and the files.
		{fn: "Kill", each: true, stmt: fixed("runtime_stdioFlush()")},
		// A child waited for: what it changed in a file is read fresh
		// (os's stdioHeard, as after (*os.Process).Wait).
		{fn: "Wait4", each: true, stmt: fixed("defer runtime_stdioHeard()")},
		// Locks, descriptors and mappings, through package syscall or
		// golang.org/x/sys/unix, whose Syscall and Syscall6 jump to
		// these (syscall/syscall_linux.go's template).
		{fn: "Syscall", file: "syscall_linux.go", stmt: trapCheck(4)},
		{fn: "Syscall6", file: "syscall_linux.go", stmt: trapCheck(7)},
	},
	// A read or write on a socket (package net's, which are not
	// *os.Files): how a program tells a peer that a file is ready.
	"internal/poll": pollHooks(),
	// A signal handed to Notify's channels: the program hears from its
	// sender (os's stdioPeerHeard).
	"os/signal": {
		{fn: "process", file: "signal.go", stmt: fixed("stdioPeerHeard()")},
	},
	// fmt's scans of a *os.File hold its read buffer (-files) and read
	// runes through it (fmt's zz_stdiobuf_scan.go).
	"fmt": {
		{fn: "Fscan", stmt: scanHold(1)},
		{fn: "Fscanln", stmt: scanHold(1)},
		{fn: "Fscanf", stmt: scanHold(2)},
	},
}

// trapCheck is the statement that sends the calls of a Syscall function
// with n parameters (trap, a1, ...) that stdioTrapped takes to stdioTrap,
// its arguments padded to six.
func trapCheck(n int) func([]string) string {
	return func(p []string) string {
		if len(p) != n || slices.Contains(p, "_") {
			return ""
		}
		args := append(slices.Clone(p), "0", "0", "0", "0", "0", "0")[:7]
		return fmt.Sprintf("if stdioTrapped(%s, %s, %s, %s) { return stdioTrap(%s) }",
			args[0], args[1], args[2], args[4], strings.Join(args, ", "))
	}
}

// scanHold is the statement that makes a scan of fmt, whose reader is
// its first parameter and whose arguments are parameter i, hold a file's
// read buffer until it returns.
func scanHold(i int) func([]string) string {
	return func(p []string) string {
		if len(p) <= i || p[0] == "_" || p[i] == "_" {
			return ""
		}
		return fmt.Sprintf("if rs := stdioScanBegin(%[1]s, %[2]s); rs != nil { defer os_stdioScanEnd(rs); %[1]s = rs }", p[0], p[i])
	}
}

// pollHooks are the insertions into internal/poll's FD methods that read
// or write a socket (an FD that is not an *os.File's, whose methods have
// os's own hooks), on Unix and on Windows, where FD's isFile means the
// same: before a write, everything buffered goes out; before a read,
// which may wait for a peer, the files go out and standard output's
// flush is handed to the runtime's goroutine (os's stdioBeforePeerRead),
// and after it, the program having heard from the peer, the read buffers
// give back what they hold (os's stdioHeard).
func pollHooks() []insertion {
	var hooks []insertion
	for _, fn := range []string{
		"Read", "ReadFrom", "ReadFromInet4", "ReadFromInet6", "ReadMsg", "ReadMsgInet4", "ReadMsgInet6",
		"Write", "WriteTo", "WriteToInet4", "WriteToInet6", "WriteMsg", "WriteMsgInet4", "WriteMsgInet6",
		"Writev",
	} {
		unix := "fd_unix.go"
		if fn == "Writev" {
			unix = "writev.go"
		}
		call := "runtime_stdioBeforePeerWrite()"
		if strings.HasPrefix(fn, "Read") {
			call = "runtime_stdioBeforePeerRead(); defer runtime_stdioAfterPeerRead()"
		}
		for _, file := range []string{unix, "fd_windows.go"} {
			hooks = append(hooks, insertion{fn: fn, recv: "FD", file: file,
				stmt: func(p []string) string { return onParam(p, 0, "if !%s.isFile { "+call+" }") }})
		}
	}
	return hooks
}

// key names h's function in messages and counts.
func (h insertion) key() string {
	if h.recv != "" {
		return "(*" + h.recv + ")." + h.fn
	}
	return h.fn
}

// ErrMoved is wrapped by the error PatchFiles returns when the toolchain's
// package no longer has what a hook expects.
var ErrMoved = errors.New("osstdout: a function -stdout hooks has moved")

// PatchFiles returns the overlay for package pkg (runtime, syscall,
// internal/poll, fmt, os/signal or time) of the toolchain whose source
// tree is goroot/src: each file of the package that gets a hook or a
// redirected call, patched, and the templates, by base name.
// A template named as a file of the package is merged into it (its
// declarations appended, its imports added): the way to add code that
// needs the file's build constraints, such as runtime's signal_unix.go; any
// other template is added as a file of its own. Every template starts with
// the build tag that keeps it out of other builds. goVersion only names
// the toolchain in errors.
func PatchFiles(goroot, goVersion, pkg string, templates map[string][]byte) (map[string][]byte, error) {
	hooks, ok := insertions[pkg]
	calls := redirects[pkg]
	if !ok && calls == nil {
		return nil, fmt.Errorf("osstdout: no hooks for package %s", pkg)
	}
	dir := filepath.Join(goroot, "src", filepath.FromSlash(pkg))
	found := make(map[hookKey]int) // declarations of each hook's function
	sent := make(map[redirect]int) // calls of each redirect's function
	out := make(map[string][]byte)
	err := eachSource(dir, func(name string, src []byte) error {
		patched, err := insertHooks(name, src, hooks, found)
		if err == nil {
			base := src
			if patched != nil {
				base = patched
			}
			var r []byte
			if r, err = redirectCalls(name, base, calls, sent); r != nil {
				patched = r
			}
		}
		if err != nil {
			return fmt.Errorf("%w: %s's %s/%s: %v", ErrMoved, goVersion, pkg, name, err)
		}
		if patched != nil {
			out[name] = patched
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, h := range hooks {
		switch n := found[h.hookKey()]; {
		case n == 0 && h.file != "":
			problems = append(problems, "no func "+h.key()+" in "+h.file)
		case n == 0:
			problems = append(problems, "no func "+h.key())
		case n > 1 && !h.each:
			problems = append(problems, fmt.Sprintf("%d funcs %s", n, h.key()))
		}
	}
	problems = append(problems, redirectProblems(calls, sent)...)
	if len(problems) > 0 {
		sort.Strings(problems)
		problems = slices.Compact(problems) // two hooks of one function
		return nil, fmt.Errorf("%w: %s's %s has %s", ErrMoved, goVersion, pkg, strings.Join(problems, ", "))
	}
	for name, b := range templates {
		b, ok := bytes.CutPrefix(b, []byte(buildTag))
		if !ok {
			return nil, fmt.Errorf("osstdout: %s template %s does not start with %q", pkg, name, buildTag)
		}
		if err := addTemplate(out, dir, name, b, goVersion+"'s "+pkg); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addTemplate adds the template b, named name and stripped of its build
// tag, to out, the patched files of the package in dir (pkg names it in
// errors): merged into the file of that name, as patched in out or as it
// is in dir, or else as a file of its own.
func addTemplate(out map[string][]byte, dir, name string, b []byte, pkg string) error {
	host, ok := out[name]
	if !ok && fileExists(filepath.Join(dir, name)) {
		var err error
		if host, err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	if host == nil {
		out[name] = b
		return nil
	}
	merged, err := merge(host, b)
	if err != nil {
		return fmt.Errorf("osstdout: merging template %s into %s/%s: %v", name, pkg, name, err)
	}
	out[name] = merged
	return nil
}

// insertHooks returns src with the statements of hooks inserted into the
// functions it declares, or nil if it declares none; found counts, by
// hook, the declarations seen.
func insertHooks(name string, src []byte, hooks []insertion, found map[hookKey]int) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var edits []edit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		recv := ""
		if fd.Recv != nil {
			recv = "?" // a receiver no hook names
			if len(fd.Recv.List) == 1 && ptrType(fd.Recv.List[0].Type) != "" {
				recv = ptrType(fd.Recv.List[0].Type)
			}
		}
		for _, h := range hooks {
			if fd.Name.Name != h.fn || recv != h.recv || h.file != "" && h.file != name {
				continue
			}
			found[h.hookKey()]++
			e, err := hookEdit(fset, fd, h)
			if err != nil {
				return nil, err
			}
			edits = append(edits, e)
		}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return applyEdits(src, edits)
}

// An edit inserts text at a byte offset of a file.
type edit struct {
	off  int
	text string
}

// hookEdit places h's statement in fd.
func hookEdit(fset *token.FileSet, fd *ast.FuncDecl, h insertion) (edit, error) {
	var params []string
	if fd.Recv != nil {
		for _, n := range fd.Recv.List[0].Names {
			params = append(params, n.Name)
		}
	}
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	stmt := h.stmt(params)
	if stmt == "" {
		return edit{}, fmt.Errorf("func %s has parameters %v, not those its hook uses", h.fn, params)
	}
	if h.before == "" {
		return edit{fset.Position(fd.Body.Lbrace).Offset + 1, "\n" + stmt + "\n"}, nil
	}
	var at []ast.Stmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok && callsFunc(es.X, h.before) && (h.arg == "" || firstArgIs(es.X, h.arg)) {
			at = append(at, es)
		}
		return true
	})
	if len(at) != 1 {
		what := h.before
		if h.arg != "" {
			what += "(" + strconv.Quote(h.arg) + ")"
		}
		return edit{}, fmt.Errorf("func %s has %d call statements of %s, want 1", h.fn, len(at), what)
	}
	return edit{fset.Position(at[0].Pos()).Offset, stmt + "\n"}, nil
}

// callsFunc reports whether e is a call of the package-level function name.
func callsFunc(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == name
}

// firstArgIs reports whether e, a call, has the string literal s first
// among its arguments.
func firstArgIs(e ast.Expr, s string) bool {
	c := e.(*ast.CallExpr)
	if len(c.Args) == 0 {
		return false
	}
	lit, ok := c.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	v, err := strconv.Unquote(lit.Value)
	return err == nil && v == s
}

// applyEdits inserts the edits' text into src and formats the result.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.off], append([]byte(e.text), out[e.off:]...)...)
	}
	return format.Source(out)
}

// merge appends tmpl's declarations to host and adds the imports tmpl
// needs that host lacks. Both are Go files of the same package.
func merge(host, tmpl []byte) ([]byte, error) {
	fset := token.NewFileSet()
	hf, err := parser.ParseFile(fset, "host.go", host, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	tf, err := parser.ParseFile(fset, "template.go", tmpl, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	if hf.Name.Name != tf.Name.Name {
		return nil, fmt.Errorf("package %s, template package %s", hf.Name.Name, tf.Name.Name)
	}
	have := make(map[string]string) // local name by path
	for _, imp := range hf.Imports {
		have[importPath(imp)] = importName(imp)
	}
	var add []string
	for _, imp := range tf.Imports {
		p := importPath(imp)
		n, ok := have[p]
		switch {
		case !ok:
			add = append(add, imp.Path.Value)
			if imp.Name != nil {
				add[len(add)-1] = imp.Name.Name + " " + imp.Path.Value
			}
		case n != importName(imp):
			return nil, fmt.Errorf("the template imports %s as %s, the file as %s", p, importName(imp), n)
		}
	}
	// The template's declarations: everything after its last import, or
	// after its package clause.
	rest := fset.Position(tf.Name.End()).Offset
	if len(tf.Decls) > 0 {
		rest = fset.Position(tf.Decls[len(tf.Decls)-1].End()).Offset
	}
	var out bytes.Buffer
	// The imports go right after the package clause, as a declaration
	// of their own, which gofmt keeps apart from the file's.
	at := fset.Position(hf.Name.End()).Offset
	out.Write(host[:at])
	if len(add) > 0 {
		out.WriteString("\n\nimport (\n\t" + strings.Join(add, "\n\t") + "\n)")
	}
	out.Write(host[at:])
	out.WriteString("\n")
	out.Write(tmpl[rest:])
	return format.Source(out.Bytes())
}

func importPath(imp *ast.ImportSpec) string {
	p, _ := strconv.Unquote(imp.Path.Value)
	return p
}

// importName is the name a file uses for an import.
func importName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p := importPath(imp)
	return p[strings.LastIndex(p, "/")+1:]
}
