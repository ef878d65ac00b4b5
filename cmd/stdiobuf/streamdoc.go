package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/stdiobuf/stdiobuf"
)

// streamImportPath is package stream's import path, which go/doc uses to
// print links.
const streamImportPath = "github.com/stdiobuf/stdiobuf/stream"

// streamDoc returns the documentation of package stream, read from the
// source built into this binary, as go doc prints it: for topic "stream"
// the package comment, for "policies" the Policy type's comment and its
// constants.
func streamDoc(topic string) (string, error) {
	fset := token.NewFileSet()
	src := stdiobuf.Source()
	names, err := fs.Glob(src, "stream/*.go")
	if err != nil {
		return "", err
	}
	var files []*ast.File
	byName := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return "", err
		}
		f, err := parser.ParseFile(fset, name, b, parser.ParseComments)
		if err != nil {
			return "", fmt.Errorf("stream's source: %v", err)
		}
		files = append(files, f)
		byName[name] = f
	}
	p, err := doc.NewFromFiles(fset, files, streamImportPath)
	if err != nil {
		return "", fmt.Errorf("stream's documentation: %v", err)
	}
	if topic == "stream" {
		return fmt.Sprintf("package stream // import %q\n\n%s", streamImportPath, p.Text(p.Doc)), nil
	}
	for _, t := range p.Types {
		if t.Name != "Policy" {
			continue
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "Policies, as -policy P and STDIOBUF_POLICY=P name them:\n\n%s\ntype Policy int\n\n%s",
			section(p, "Policies"), p.Text(t.Doc))
		for _, c := range t.Consts {
			f := byName[fset.Position(c.Decl.Pos()).Filename]
			b.WriteString("\n")
			cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
			if err := cfg.Fprint(&b, fset, &printer.CommentedNode{Node: c.Decl, Comments: f.Comments}); err != nil {
				return "", err
			}
			b.WriteString("\n")
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("stream's source has no type Policy")
}

// section returns the text of the package comment's section under the
// heading title, without the heading, or "" if it has none.
func section(p *doc.Package, title string) string {
	var blocks []comment.Block
	in := false
	for _, b := range p.Parser().Parse(p.Doc).Content {
		if h, ok := b.(*comment.Heading); ok {
			in = len(h.Text) == 1 && h.Text[0] == comment.Plain(title)
			continue
		}
		if in {
			blocks = append(blocks, b)
		}
	}
	return string(p.Printer().Text(&comment.Doc{Content: blocks}))
}

// sourceDir returns the module directory this binary was built from if
// it is still there (it holds README.md), else "". The go command records
// each compiled file's absolute path, unless -trimpath, so file, this
// file's path as runtime.Caller reports it, leads to it.
func sourceDir(file string) string {
	if !filepath.IsAbs(file) {
		return "" // -trimpath: only the import path is known
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file))) // DIR/cmd/stdiobuf/streamdoc.go
	if info, err := os.Stat(filepath.Join(dir, "README.md")); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return dir
}

// thisFile is this file's path as the compiler recorded it.
func thisFile() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}

// moduleVersion returns the module this binary was built from as
// runtime/debug reports it: its path and version ("(devel)" when built
// in the module itself), or, when the go.mod that required it replaced it,
// its path => the replacement, as go.mod writes it.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path == "" {
		return path.Dir(path.Dir(streamImportPath))
	}
	m := bi.Main
	if r := m.Replace; r != nil {
		return strings.TrimSuffix(m.Path+" => "+r.Path+" "+strings.TrimPrefix(r.Version, "(devel)"), " ")
	}
	return m.Path + " " + m.Version
}
