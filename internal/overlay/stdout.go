package overlay

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/osstdout"
)

// Source directories of `stdiobuf build -stdout`, inside the fs.FS handed
// to GenerateWith: the patcher of package os (its source is part of the
// cache key), the files it adds to os, and the files that stand in for
// stream's osfile.go and std.go in a bufio that package os imports. The
// templates of the other packages it patches are in osstdoutDir/PKG;
// what -files adds to os besides, in osstdoutFilesDir.
const (
	osstdoutDir      = "internal/osstdout"
	osstdoutStdDir   = "internal/osstdout/std"
	osstdoutBufioDir = "internal/osstdout/bufio"
	osstdoutFilesDir = "internal/osstdout/files"
)

// hookDirs are the template directories of the packages -stdout patches
// besides os, by import path.
func hookDirs() map[string]string {
	dirs := make(map[string]string)
	for _, p := range osstdout.Packages {
		if p != "os" {
			dirs[p] = path.Join(osstdoutDir, p)
		}
	}
	return dirs
}

// stdoutReplaced are stream's files that import package os; under -stdout
// package os imports bufio, so the generated bufio takes the files of the
// same names in osstdoutBufioDir instead.
var stdoutReplaced = []string{"osfile.go", "std.go"}

// addStdoutSource adds to files the sources -stdout needs from src, and
// with withFiles those -files needs.
func addStdoutSource(src fs.FS, files map[string][]byte, withFiles bool) (map[string][]byte, error) {
	dirs := []string{osstdoutDir, osstdoutStdDir, osstdoutBufioDir}
	if withFiles {
		dirs = append(dirs, osstdoutFilesDir)
	}
	for _, dir := range hookDirs() {
		dirs = append(dirs, dir)
	}
	for _, dir := range dirs {
		if err := readSourceDir(src, dir, files); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// stdoutFiles swaps, in gen, the files of stream that import package os
// for their stand-ins, and returns the patches of package os and of the
// other packages -stdout hooks: the files each replaces or adds; with
// withFiles, those of -files.
func stdoutFiles(tc Toolchain, files map[string][]byte, gen map[string][]byte, withFiles bool) ([]*pkgOverlay, error) {
	for _, name := range stdoutReplaced {
		twin, ok := files[path.Join(osstdoutBufioDir, name)]
		if !ok {
			return nil, fmt.Errorf("%w: no %s/%s", ErrSource, osstdoutBufioDir, name)
		}
		b, ok := bytes.CutPrefix(twin, []byte("//go:build "+strings.TrimSuffix(stdTag, " && ")+"\n"))
		if !ok {
			return nil, fmt.Errorf("%w: %s/%s lacks its build tag", ErrSource, osstdoutBufioDir, name)
		}
		gen[name] = append([]byte(header(path.Join(osstdoutBufioDir, name))), b...)
	}
	templates := templatesIn(files, osstdoutStdDir)
	var extra map[string][]byte
	if withFiles {
		extra = templatesIn(files, osstdoutFilesDir)
		for name, b := range extra {
			if _, clash := templates[name]; clash {
				return nil, fmt.Errorf("%w: %s and %s both have %s", ErrSource, osstdoutStdDir, osstdoutFilesDir, name)
			}
			templates[name] = b
		}
	}
	osFiles, err := osstdout.Files(tc.GOROOT, tc.GOVERSION, templates, withFiles)
	if err != nil {
		return nil, err
	}
	osFiles = withHeaders(osFiles, extra, osstdoutFilesDir)
	osPatch, err := patchOverlay(tc, "os", withHeaders(osFiles, templatesIn(files, osstdoutStdDir), osstdoutStdDir))
	if err != nil {
		return nil, err
	}
	pkgs := []*pkgOverlay{osPatch}
	dirs := hookDirs()
	for _, p := range sortedKeys(dirs) {
		templates := templatesIn(files, dirs[p])
		patched, err := osstdout.PatchFiles(tc.GOROOT, tc.GOVERSION, p, templates)
		if err != nil {
			return nil, err
		}
		po, err := patchOverlay(tc, p, withHeaders(patched, templates, dirs[p]))
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, po)
	}
	return pkgs, nil
}

// templatesIn returns the files of dir, by base name.
func templatesIn(files map[string][]byte, dir string) map[string][]byte {
	templates := make(map[string][]byte)
	for name, b := range files {
		if path.Dir(name) == dir {
			templates[path.Base(name)] = b
		}
	}
	return templates
}

// withHeaders prefixes each of gen's files that a template of dir made
// with the header naming its source.
func withHeaders(gen, templates map[string][]byte, dir string) map[string][]byte {
	for name := range templates {
		if b, ok := gen[name]; ok {
			gen[name] = append([]byte(header(path.Join(dir, name))), b...)
		}
	}
	return gen
}

// patchOverlay is the patch of tc's package p made of gen, the files it
// replaces or adds (layout merges the added ones into one of p's).
func patchOverlay(tc Toolchain, p string, gen map[string][]byte) (*pkgOverlay, error) {
	po := &pkgOverlay{path: p, gen: gen, patch: true}
	var err error
	if po.std, err = readGoFiles(po.srcDir(tc.GOROOT)); err != nil {
		return nil, fmt.Errorf("%s's %s: %w", tc.GOVERSION, p, err)
	}
	return po, nil
}
