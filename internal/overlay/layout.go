package overlay

import (
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"sort"
	"strings"
)

// layout puts p's generated files under names the toolchain's package
// already has, so every file `go list` reports exists on disk. A generated
// file of such a name stays as it is; the others are merged into one of
// the toolchain's files: for a whole package (bufio), into the first file
// the generated package does not have, with the files built for tc's
// target only (see target.go); for a patch (os under -stdout), appended to
// the last file that builds everywhere, as a file named to sort last would
// be.
func (p *pkgOverlay) layout(tc Toolchain, plat platforms) error {
	var added []string
	for _, name := range sortedKeys(p.gen) {
		if _, ok := p.std[name]; ok {
			continue
		}
		if strings.HasSuffix(name, "_test.go") {
			return fmt.Errorf("%w: %s's test file %s has no file of that name in %s to take its place", ErrSource, p.path, name, tc.GOVERSION)
		}
		added = append(added, name)
	}
	if len(added) == 0 {
		return nil
	}
	if p.spans == nil {
		p.spans = make(map[string][]span)
	}
	var err error
	if p.patch {
		err = p.appendToHost(tc, plat, added)
	} else {
		err = p.mergeForTarget(tc, plat, added)
	}
	for _, name := range added {
		delete(p.gen, name)
	}
	return err
}

// genFile is the generated file name, with the source it was made from
// (see header).
func (p *pkgOverlay) genFile(name string) goFile {
	f := goFile{name: path.Join(p.path, name), src: p.gen[name]}
	if rest, ok := strings.CutPrefix(string(f.src), headerStart); ok {
		f.from, _, _ = strings.Cut(rest, headerEnd)
	}
	return f
}

// forTarget returns the names among added whose files tc's target builds,
// and an error if one is chosen by a tag the overlay cannot carry.
func (p *pkgOverlay) forTarget(tc Toolchain, plat platforms, added []string) ([]string, error) {
	var names []string
	for _, name := range added {
		f := p.genFile(name)
		if err := checkTags(f, plat); err != nil {
			return nil, err
		}
		if buildsFor(tc.GOOS, tc.GOARCH, f) {
			names = append(names, name)
		}
	}
	return names, nil
}

// mergeForTarget merges the added files of a whole generated package
// that tc's target builds into its host (wholeHost), constrained to the
// target and with the toolchain's package comment, and marks the package
// as made for that target (markTarget).
func (p *pkgOverlay) mergeForTarget(tc Toolchain, plat platforms, added []string) error {
	host, merged, err := p.wholeHost(tc, added)
	if err != nil {
		return err
	}
	selected, err := p.forTarget(tc, plat, merged)
	if err != nil {
		return err
	}
	if err := p.checkInitOrder(merged, selected, host); err != nil {
		return err
	}
	var files []goFile
	for _, name := range selected {
		files = append(files, p.genFile(name))
	}
	doc, err := packageDoc(p.std)
	if err != nil {
		return err
	}
	head := header("the files named below, for "+tc.GOOS+"/"+tc.GOARCH) +
		"//go:build " + targetConstraint(tc, plat) + "\n\n" + doc + "package " + path.Base(p.path) + "\n"
	p.gen[host], p.spans[host], err = merge(head, files)
	if err != nil {
		return err
	}
	return p.markTarget(tc, host, merged)
}

// wholeHost returns the file of the toolchain's package that holds the
// merged files of a whole generated package: the first non-test one the
// generated package lacks, else the first one, whose generated text is
// then merged too, in name order. It returns the names to merge.
func (p *pkgOverlay) wholeHost(tc Toolchain, added []string) (host string, merged []string, err error) {
	var names []string
	for _, name := range sortedKeys(p.std) {
		if !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	for _, name := range names {
		if _, ok := p.gen[name]; !ok {
			return name, added, nil
		}
	}
	if len(names) == 0 {
		return "", nil, fmt.Errorf("%w: %s's %s has no file to hold %s", ErrSource, tc.GOVERSION, p.path, strings.Join(added, ", "))
	}
	merged = append([]string{names[0]}, added...)
	sort.Strings(merged)
	return names[0], merged, nil
}

// markTarget makes a build of the package for a target other than tc's
// fail with "undefined: marker(tc)": host, built for tc's target only,
// declares the marker, and the first other generated file that builds
// everywhere (and was not merged) refers to it. Without such a file the
// other target's build fails on whatever the package then lacks.
func (p *pkgOverlay) markTarget(tc Toolchain, host string, merged []string) error {
	m := marker(tc)
	p.gen[host] = fmt.Appendf(p.gen[host], "\n// %s is declared only in a build for %s/%s, the target this overlay\n"+
		"// was made for; a file that builds everywhere refers to it.\nconst %s = true\n", m, tc.GOOS, tc.GOARCH, m)
	for _, name := range sortedKeys(p.gen) {
		f := p.genFile(name)
		if name == host || strings.HasSuffix(name, "_test.go") || slices.Contains(merged, name) || !unconstrained(f) {
			continue
		}
		ref := fmt.Sprintf("// This overlay's %s is made for %s/%s: a build for another target\n"+
			"// needs the overlay made for it (stdiobuf asks go env GOOS GOARCH).\nvar _ = %s", p.path, tc.GOOS, tc.GOARCH, m)
		var err error
		p.gen[name], err = insertAfterImports(f, ref)
		return err
	}
	return nil
}

// appendToHost appends the added files of a patch that tc's target builds
// to the last file of the toolchain's package that builds everywhere (its
// generated version if the patch changes it).
func (p *pkgOverlay) appendToHost(tc Toolchain, plat platforms, added []string) error {
	host := ""
	for _, name := range sortedKeys(p.std) {
		if !strings.HasSuffix(name, "_test.go") && unconstrained(goFile{name: name, src: p.std[name]}) {
			host = name
		}
	}
	if host == "" {
		return fmt.Errorf("%w: %s's %s has no file that builds everywhere to hold %s", ErrSource, tc.GOVERSION, p.path, strings.Join(added, ", "))
	}
	selected, err := p.forTarget(tc, plat, added)
	if err != nil {
		return err
	}
	src, ok := p.gen[host]
	if !ok {
		src = p.std[host]
	}
	if err := p.checkInitOrder(added, selected, host); err != nil {
		return err
	}
	files := []goFile{{name: path.Join(p.path, host), src: src}}
	for _, name := range selected {
		files = append(files, p.genFile(name))
	}
	clauseEnd, _, _, err := splitFile(files[0])
	if err != nil {
		return err
	}
	p.gen[host], p.spans[host], err = merge(string(src[:clauseEnd]), files)
	return err
}

// checkInitOrder returns an error if merging the files named moved into
// host changes the order in which the package's init functions run: the
// go command compiles a package's files in name order, and init functions
// run in that order. The files compared are those the package would have
// if every generated file kept its name, whatever their build
// constraints; added files left out for the target (not moved) are not.
func (p *pkgOverlay) checkInitOrder(added, moved []string, host string) error {
	srcs := make(map[string][]byte)
	if p.patch {
		for name, b := range p.std {
			srcs[name] = b
		}
	}
	for name, b := range p.gen {
		srcs[name] = b
	}
	var names []string
	withInit := make(map[string]bool)
	for _, name := range sortedKeys(srcs) {
		if !strings.HasSuffix(name, "_test.go") && (!slices.Contains(added, name) || slices.Contains(moved, name)) {
			names = append(names, name)
			withInit[name], _ = hasInit(goFile{name: name, src: srcs[name]}) // a parse error is the compile check's
		}
	}
	inits := func(names []string) []string {
		var with []string
		for _, name := range names {
			if withInit[name] {
				with = append(with, name)
			}
		}
		return with
	}
	before := inits(names)
	// After the merge a moved file compiles at the host's place, after
	// the host's own text, in the order of the moved files' names.
	at := func(name string) string {
		if slices.Contains(moved, name) {
			return host + "\x00" + name
		}
		return name
	}
	slices.SortStableFunc(names, func(a, b string) int { return strings.Compare(at(a), at(b)) })
	after := inits(names)
	if !slices.Equal(before, after) {
		return fmt.Errorf("%w: merging %s into %s's %s would run init functions in another order (%s, not %s)",
			ErrSource, strings.Join(moved, ", "), p.path, host, strings.Join(after, ", "), strings.Join(before, ", "))
	}
	return nil
}

// packageDoc returns the package comment of the toolchain's files, with
// a newline, or "" if none has one.
func packageDoc(std map[string][]byte) (string, error) {
	for _, name := range sortedKeys(std) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, std[name], parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return "", err
		}
		if f.Doc != nil {
			from, to := fset.Position(f.Doc.Pos()).Offset, fset.Position(f.Doc.End()).Offset
			return string(std[name][from:to]) + "\n", nil
		}
	}
	return "", nil
}
