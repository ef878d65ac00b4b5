package overlay

import (
	"bytes"
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
)

// An overlay can add no file to a package: tools that take file names
// from `go list` read them from disk. So stream's files, whose build
// constraints choose among them by platform, are merged into one file of
// bufio's for one target (GOOS and GOARCH), which is part of the cache
// key; that file is constrained to the target, and a build for another
// target fails on an undefined name that says so (see marker).

// platforms are the GOOS and GOARCH values a toolchain knows.
type platforms struct {
	oses, arches map[string]bool
}

// knownPlatforms asks tc's go command for the targets it knows (go tool
// dist list).
func knownPlatforms(tc Toolchain, goCmd string) (platforms, error) {
	cmd := exec.Command(goCmd, "tool", "dist", "list")
	cmd.Env = append(os.Environ(), "GOROOT="+tc.GOROOT, "GOTOOLCHAIN=local", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return platforms{}, fmt.Errorf("%s tool dist list: %v", goCmd, err)
	}
	p := platforms{oses: map[string]bool{}, arches: map[string]bool{}}
	for _, line := range strings.Fields(string(out)) {
		goos, goarch, ok := strings.Cut(line, "/")
		if !ok {
			return platforms{}, fmt.Errorf("%s tool dist list printed %q, want GOOS/GOARCH lines", goCmd, line)
		}
		p.oses[goos], p.arches[goarch] = true, true
	}
	if !p.oses[tc.GOOS] || !p.arches[tc.GOARCH] {
		return platforms{}, fmt.Errorf("%s does not know the target %s/%s", tc.GOVERSION, tc.GOOS, tc.GOARCH)
	}
	return p, nil
}

// buildsFor reports whether the go command builds f for goos/goarch with
// no build tags set: go/build's own reading of its name and constraint.
func buildsFor(goos, goarch string, f goFile) bool {
	ctx := build.Context{
		GOOS: goos, GOARCH: goarch, Compiler: "gc",
		JoinPath: path.Join,
		OpenFile: func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.src)), nil },
	}
	ok, err := ctx.MatchFile(".", path.Base(f.name))
	return err == nil && ok
}

// unconstrained reports whether f builds for every target: no build
// constraint and no GOOS or GOARCH in its name.
func unconstrained(f goFile) bool {
	expr, err := buildConstraint(f)
	return err == nil && expr == nil && buildsFor("stdiobuf_no_os", "stdiobuf_no_arch", f)
}

// buildConstraint returns f's //go:build expression, nil if it has none.
func buildConstraint(f goFile) (constraint.Expr, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.name, f.src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSource, err)
	}
	for _, g := range af.Comments {
		if g.Pos() > af.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) {
				expr, err := constraint.Parse(c.Text)
				if err != nil {
					return nil, fmt.Errorf("%w: %s: %v", ErrSource, f.name, err)
				}
				return expr, nil
			}
		}
	}
	return nil, nil
}

// checkTags returns an error if f's build constraint uses a tag that is
// not a GOOS, a GOARCH or unix: an overlay made for one GOOS and GOARCH
// could not carry the choice it makes.
func checkTags(f goFile, p platforms) error {
	expr, err := buildConstraint(f)
	if err != nil || expr == nil {
		return err
	}
	var bad []string
	expr.Eval(func(tag string) bool {
		if !p.oses[tag] && !p.arches[tag] && tag != "unix" {
			bad = append(bad, tag)
		}
		return false
	})
	if len(bad) > 0 {
		return fmt.Errorf("%w: %s is built by tag %s, which is not a GOOS, a GOARCH or unix: an overlay made for one target cannot choose by it", ErrSource, f.origin(), strings.Join(bad, ", "))
	}
	return nil
}

// targetConstraint returns the build expression true for tc's GOOS and
// GOARCH only: the two tags, and not each other GOOS that also sets the
// GOOS's tag (android sets linux, ios darwin, illumos solaris).
func targetConstraint(tc Toolchain, p platforms) string {
	terms := []string{tc.GOOS, tc.GOARCH}
	probe := goFile{name: "probe.go", src: []byte("//go:build " + tc.GOOS + "\n\npackage p\n")}
	var others []string
	for goos := range p.oses {
		if goos != tc.GOOS && buildsFor(goos, tc.GOARCH, probe) {
			others = append(others, "!"+goos)
		}
	}
	sort.Strings(others)
	return strings.Join(append(terms, others...), " && ")
}

// marker is the name the merged file declares and another file of the
// package refers to: a build for another target, where the merged file is
// left out, fails with "undefined: marker", which says what to do.
func marker(tc Toolchain) string {
	return "stdiobuf_overlay_made_for_" + tc.GOOS + "_" + tc.GOARCH + "_run_stdiobuf_overlay_with_the_GOOS_and_GOARCH_you_build_for"
}
