package overlay

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A goFile is a Go source file.
type goFile struct {
	name string // its path, whose base name go/build reads for the target
	src  []byte
	from string // what it was generated from, for comments; "" if name says it
}

// origin is what f was made from.
func (f goFile) origin() string {
	if f.from != "" {
		return f.from
	}
	return f.name
}

// An importSpec is one import of a file: its explicit name ("" for none,
// "_" for a blank import) and its path.
type importSpec struct {
	name, path string
}

// localName is the name the import declares in its file: the explicit
// one, else the path's last element that is not a major version (the
// package name of every standard-library path).
func (s importSpec) localName() string {
	if s.name != "" {
		return s.name
	}
	elems := strings.Split(s.path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && majorVersion.MatchString(last) {
		last = elems[len(elems)-2]
	}
	return last
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

func (s importSpec) String() string {
	if s.name != "" {
		return s.name + " " + strconv.Quote(s.path)
	}
	return strconv.Quote(s.path)
}

// splitFile parses f's package clause and imports and returns the
// offset where its package clause ends, the offset where its imports end
// (the package clause's end if it has none) and the imports.
func splitFile(f goFile) (clauseEnd, importsEnd int, imports []importSpec, err error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.name, f.src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("%w: %v", ErrSource, err)
	}
	clauseEnd = fset.Position(af.Name.End()).Offset
	importsEnd = clauseEnd
	for _, d := range af.Decls {
		importsEnd = fset.Position(d.End()).Offset
	}
	for _, imp := range af.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		s := importSpec{path: p}
		if imp.Name != nil {
			s.name = imp.Name.Name
		}
		imports = append(imports, s)
	}
	return clauseEnd, importsEnd, imports, nil
}

// merge returns one Go file that holds files: head (everything up to and
// including the package clause), one import declaration with the union of
// the files' imports, then each file's text after its imports, in order,
// under a comment naming it. The files must be of head's package. Two
// files that import different packages under one name, a dot import or
// cgo's "C" are an error: one file cannot hold them.
// The spans map the merged file's lines to the files' lines.
func merge(head string, files []goFile) ([]byte, []span, error) {
	byName := make(map[string]importSpec) // by local name, blank imports aside
	from := make(map[string]string)       // file that first imported a local name
	blank := make(map[string]bool)        // paths imported only for effect
	var bodies []string
	var starts []int // the line each body starts on in its file
	for _, f := range files {
		_, end, imports, err := splitFile(f)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range imports {
			switch n := s.localName(); {
			case n == "." || s.path == "C":
				return nil, nil, fmt.Errorf("%w: %s imports %s, which cannot be merged into another file", ErrSource, f.name, s)
			case n == "_":
				blank[s.path] = true
			case byName[n].path == "":
				byName[n], from[n] = s, f.name
			case byName[n].path != s.path:
				return nil, nil, fmt.Errorf("%w: %s imports %s and %s imports %s, one name for two packages in the merged file", ErrSource, from[n], byName[n], f.name, s)
			}
		}
		body := strings.TrimLeft(string(f.src[end:]), "\n")
		bodies = append(bodies, body)
		starts = append(starts, 1+bytes.Count(f.src[:len(f.src)-len(body)], []byte("\n")))
	}
	var specs []importSpec
	named := make(map[string]bool)
	for _, s := range byName {
		specs = append(specs, s)
		named[s.path] = true
	}
	for p := range blank {
		if !named[p] {
			specs = append(specs, importSpec{name: "_", path: p})
		}
	}
	sort.Slice(specs, func(i, j int) bool {
		if specs[i].path != specs[j].path {
			return specs[i].path < specs[j].path
		}
		return specs[i].name < specs[j].name
	})
	var out bytes.Buffer
	out.WriteString(strings.TrimRight(head, "\n") + "\n")
	if len(specs) > 0 {
		out.WriteString("\nimport (\n")
		for _, s := range specs {
			out.WriteString("\t" + s.String() + "\n")
		}
		out.WriteString(")\n")
	}
	var spans []span
	for i, f := range files {
		fmt.Fprintf(&out, "\n// From %s.\n\n", f.origin())
		spans = append(spans, span{line: 1 + bytes.Count(out.Bytes(), []byte("\n")), from: f.origin(), fromLine: starts[i]})
		out.WriteString(bodies[i])
		if bodies[i] != "" && !strings.HasSuffix(bodies[i], "\n") {
			out.WriteString("\n")
		}
	}
	return out.Bytes(), spans, nil
}

// A span says that from line on, a merged file's lines are those of
// file from, starting at fromLine.
type span struct {
	line     int
	from     string
	fromLine int
}

// position returns where line of a merged file with spans came from, as
// file:line, or "" if it is not in a span.
func position(spans []span, line int) string {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].line > line }) - 1
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", spans[i].from, spans[i].fromLine+line-spans[i].line)
}

// insertAfterImports returns f's source with text inserted after its
// imports (after its package clause if it has none).
func insertAfterImports(f goFile, text string) ([]byte, error) {
	_, end, _, err := splitFile(f)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(f.src[:end])
	out.WriteString("\n\n" + strings.Trim(text, "\n") + "\n")
	out.Write(f.src[end:])
	return out.Bytes(), nil
}

// hasInit reports whether src declares a func init.
func hasInit(f goFile) (bool, error) {
	af, err := parser.ParseFile(token.NewFileSet(), f.name, f.src, parser.SkipObjectResolution)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrSource, err)
	}
	for _, d := range af.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			return true, nil
		}
	}
	return false, nil
}
