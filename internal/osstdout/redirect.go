package osstdout

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// A redirect sends the calls one file of a patched package makes of a
// function of another package to a function of the patched package
// itself, which a template declares with the same signature: it makes
// the same call and counts it. Only the callee changes; the package's
// own code around the calls stays the toolchain's.
type redirect struct {
	file string // the file whose calls are redirected
	from string // the called function, "pkg.Name", pkg as the file imports it
	to   string // the function of the patched package that takes the calls
}

// redirects are the redirected calls, by package. Package time opens,
// reads and closes the zone files (the local zone, LoadLocation's files
// and zoneinfo.zip) with package syscall, not through an *os.File: its
// template (time/sys_unix.go) counts those calls for the report.
var redirects = map[string][]redirect{
	"time": {
		{file: "sys_unix.go", from: "syscall.Open", to: "stdioZoneOpen"},
		{file: "sys_unix.go", from: "syscall.Read", to: "stdioZoneRead"},
		{file: "sys_unix.go", from: "syscall.Close", to: "stdioZoneClose"},
	},
}

// redirectCalls returns src, the file name, with the calls of rs that
// name its redirects sent to their functions, or nil if it has none to
// redirect; found counts, by redirect, the calls sent.
func redirectCalls(name string, src []byte, rs []redirect, found map[redirect]int) ([]byte, error) {
	var mine []redirect
	for _, r := range rs {
		if r.file == name {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	// The local name of each import, so that "syscall.Read" matches a
	// call of the package syscall however the file names it.
	local := make(map[string]string)
	for _, imp := range f.Imports {
		local[importName(imp)] = importPath(imp)
	}
	type span struct {
		start, end int
		to         string
	}
	var spans []span
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		for _, r := range mine {
			path, fn, _ := strings.Cut(r.from, ".")
			if local[pkg.Name] == path && sel.Sel.Name == fn {
				found[r]++
				spans = append(spans, span{fset.Position(sel.Pos()).Offset, fset.Position(sel.End()).Offset, r.to})
			}
		}
		return true
	})
	if len(spans) == 0 {
		return nil, nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	out := append([]byte(nil), src...)
	for _, s := range spans {
		out = append(out[:s.start], append([]byte(s.to), out[s.end:]...)...)
	}
	return format.Source(out)
}

// redirectProblems names the redirects of rs that found no call.
func redirectProblems(rs []redirect, found map[redirect]int) []string {
	var problems []string
	for _, r := range rs {
		if found[r] == 0 {
			problems = append(problems, fmt.Sprintf("no call of %s in %s", r.from, r.file))
		}
	}
	return problems
}
