package overlay

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/osstdout"
)

// generatorSource is this package's own source: it is part of the cache
// key, so a changed generator never reuses an overlay made by an older
// one.
//
//go:embed *.go
var generatorSource embed.FS

// isSource reports whether name is a Go file that goes into a package
// build, not a test.
func isSource(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// sourceFiles reads the non-test Go files of stream and of its std twins
// from src, keyed by their slash path in src. The twins' directory may be
// missing: then stream must have no seam files.
func sourceFiles(src fs.FS) (map[string][]byte, error) {
	files := make(map[string][]byte)
	for _, dir := range []string{streamDir, seamDir} {
		err := readSourceDir(src, dir, files)
		if err != nil && !(dir == seamDir && errors.Is(err, fs.ErrNotExist)) {
			return nil, err
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no Go files in %s", ErrSource, streamDir)
	}
	return files, nil
}

// readSourceDir adds to files the non-test Go files of dir in src, keyed
// by their slash path in src. Its errors wrap ErrSource and the fs error.
func readSourceDir(src fs.FS, dir string, files map[string][]byte) error {
	entries, err := fs.ReadDir(src, dir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSource, err)
	}
	for _, e := range entries {
		if e.IsDir() || !isSource(e.Name()) {
			continue
		}
		name := path.Join(dir, e.Name())
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrSource, err)
		}
		files[name] = b
	}
	return nil
}

// readGoFiles returns the Go files of dir, tests included, by base name.
func readGoFiles(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := make(map[string][]byte)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}

// hashFiles returns a hex SHA-256 over the names and contents of files,
// in name order.
func hashFiles(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cacheKey names the overlay for tc, stream's files, opts and this
// generator. GOROOT is in it because the overlay maps files by their
// GOROOT path, and so are the toolchain's own Go files of the packages
// the generator reads (toolchainPackages): a GOROOT patched by a
// distribution keeps its GOVERSION.
func cacheKey(tc Toolchain, files map[string][]byte, opts Options) (string, error) {
	gen := make(map[string][]byte)
	entries, _ := fs.ReadDir(generatorSource, ".")
	for _, e := range entries {
		if isSource(e.Name()) {
			gen[e.Name()], _ = fs.ReadFile(generatorSource, e.Name())
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s/%s\n%t %t %q\n%s\n%s\n", tc.GOVERSION, tc.GOROOT, tc.GOOS, tc.GOARCH,
		opts.Stdout, opts.Files, opts.Policy, hashFiles(files), hashFiles(gen))
	for _, p := range toolchainPackages(opts) {
		std, err := readGoFiles(pkgOverlay{path: p}.srcDir(tc.GOROOT))
		if err != nil {
			return "", fmt.Errorf("%s's %s: %w", tc.GOVERSION, p, err)
		}
		fmt.Fprintf(h, "%s %s\n", p, hashFiles(std))
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// toolchainPackages are the standard-library packages whose files the
// generator reads for opts: bufio's declarations, and under -stdout the
// packages internal/osstdout patches.
func toolchainPackages(opts Options) []string {
	pkgs := []string{"bufio"}
	if opts.Stdout || opts.Files {
		pkgs = append(pkgs, osstdout.Packages...)
	}
	return pkgs
}
