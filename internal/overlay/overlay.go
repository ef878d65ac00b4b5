// Package overlay generates the go command overlay that compiles package
// stream as the standard library's bufio, so that a whole program, its
// dependencies and the standard library included, gets stream's buffering
// without a source change (cmd/stdiobuf runs the go command with it).
//
// The overlay is made from stream's own source, carried by the stdiobuf
// binary: the package is renamed bufio, and its messages and comments
// name bufio where they named stream (asBufio); its platform seam, the
// sys_*.go files that import golang.org/x/sys, is swapped for the std
// twins in internal/stdseam, which use only the standard library; and
// bufioapi.go, the one file that imports bufio, is swapped for the
// toolchain's own declarations of the same names, so error values,
// SplitFunc and MaxScanTokenSize are bufio's by construction. Before it is
// published the result is checked against the toolchain's bufio API and
// compiled.
//
// The overlay adds no file name: tools that take file names from `go
// list` read them from disk (go/packages, gopls, staticcheck). stream's
// scan.go replaces bufio's; its other files that the target (GOOS and
// GOARCH) builds are merged into bufio.go, constrained to that target, and
// a build for another target fails naming the cause (layout.go, target.go).
// Files that -stdout adds to package os are appended to one of os's.
//
// Overlays are written once per toolchain (version, GOROOT and the Go
// files of the packages the generator reads there), target, Options,
// stream source and generator source into a cache directory, atomically: a
// generator writes into a temporary directory and renames it into place,
// so a reader never sees half an overlay, and of two concurrent generators
// one rename wins and the other uses its result.
package overlay

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stdiobuf/stdiobuf/stream"
)

// Toolchain is the Go toolchain an overlay is made for: the one that will
// compile with it.
type Toolchain struct {
	GOROOT    string // as `go env GOROOT` reports it
	GOVERSION string // as `go env GOVERSION` reports it, such as go1.26.8
	// GOOS and GOARCH are the target the overlay builds for, as `go env`
	// reports them: the generated bufio holds the files of stream that the
	// target builds (see target.go).
	GOOS, GOARCH string
}

// Overlay is a published overlay.
type Overlay struct {
	Dir     string // the overlay's cache directory
	JSON    string // the overlay file, for go's -overlay flag
	Key     string // the cache key: toolchain, stream and generator
	Version string // stream's version: a hash of its source and std twins
	// Generated is true if this call made the overlay, false if it was
	// already in the cache.
	Generated bool
}

// Errors the generator returns, wrapped with the details.
var (
	// ErrAPI means the generated bufio lacks a name of the toolchain's
	// bufio API, or declares it differently.
	ErrAPI = errors.New("bufio API mismatch")
	// ErrSource means stream's source cannot be made into bufio: a seam
	// file without its std twin, or a file that does not parse.
	ErrSource = errors.New("stream source")
	// ErrCompile means the generated bufio does not compile.
	ErrCompile = errors.New("generated bufio does not compile")
	// ErrCache means the cache directory cannot be written.
	ErrCache = errors.New("cache directory")
)

// Source directories inside the fs.FS handed to Generate.
const (
	streamDir = "stream"
	seamDir   = "internal/stdseam"
)

// bufioDir is bufio's directory in a GOROOT.
func bufioDir(goroot string) string {
	return pkgOverlay{path: "bufio"}.srcDir(goroot)
}

// Generate returns the overlay for tc made from src, which holds stream's
// source under stream/ and the std twins of its seam under
// internal/stdseam/ (test files are ignored). An overlay already in
// cacheDir is reused; otherwise one is generated, checked against tc's
// bufio API, compiled with goCmd (tc's go command) and published into
// cacheDir. On error nothing is published.
func Generate(tc Toolchain, src fs.FS, cacheDir, goCmd string) (*Overlay, error) {
	return GenerateWith(tc, src, cacheDir, goCmd, Options{})
}

// Options choose what an overlay changes besides bufio.
type Options struct {
	// Stdout also changes package os so that the process's standard
	// output is buffered as C's stdout is (`stdiobuf build -stdout`; see
	// internal/osstdout). src must then also hold internal/osstdout.
	Stdout bool
	// Files also buffers every regular file the program writes, as
	// fopen's FILE does, and writes them out before anything can see
	// them (`stdiobuf build -files`; see internal/osstdout). It implies
	// Stdout.
	Files bool
	// Policy, if not "", is the buffering policy the generated bufio
	// takes as the process default in place of blksize, as
	// stream.ParsePolicy reads it; STDIOBUF_POLICY still overrides it.
	Policy string
}

// GenerateWith is Generate with options.
func GenerateWith(tc Toolchain, src fs.FS, cacheDir, goCmd string, opts Options) (*Overlay, error) {
	files, err := sourceFiles(src)
	if err != nil {
		return nil, err
	}
	name := safeName(tc.GOVERSION) + "-" + tc.GOOS + "_" + tc.GOARCH + "-"
	opts.Stdout = opts.Stdout || opts.Files
	if opts.Stdout {
		if files, err = addStdoutSource(src, files, opts.Files); err != nil {
			return nil, err
		}
		name += "stdout-"
	}
	if opts.Files {
		name += "files-"
	}
	if opts.Policy != "" {
		if _, err := stream.ParsePolicy(opts.Policy); err != nil {
			return nil, err
		}
		name += "policy_" + safeName(opts.Policy) + "-"
	}
	ov := &Overlay{Version: hashFiles(files)[:12]}
	if ov.Key, err = cacheKey(tc, files, opts); err != nil {
		return nil, err
	}
	ov.Dir = filepath.Join(cacheDir, name+ov.Key)
	ov.JSON = filepath.Join(ov.Dir, overlayFile)
	if _, err := os.Stat(ov.JSON); err == nil {
		return ov, nil
	}
	std, err := parseDir(bufioDir(tc.GOROOT))
	if err != nil {
		return nil, fmt.Errorf("%s's bufio: %w", tc.GOVERSION, err)
	}
	gen, err := generate(tc, std, files)
	if err != nil {
		return nil, err
	}
	if opts.Policy != "" {
		if err := setBuiltinPolicy(gen, opts.Policy); err != nil {
			return nil, err
		}
	}
	pkgs := []*pkgOverlay{{path: "bufio", std: std.src, gen: gen}}
	if opts.Stdout {
		patches, err := stdoutFiles(tc, files, gen, opts.Files)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, patches...)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	plat, err := knownPlatforms(tc, goCmd)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		if err := p.layout(tc, plat); err != nil {
			return nil, fmt.Errorf("%s: %w", tc.GOVERSION, err)
		}
	}
	if err := publish(tc, pkgs, ov, goCmd); err != nil {
		return nil, err
	}
	return ov, nil
}

// generate makes the files of the generated bufio and checks its API.
func generate(tc Toolchain, std *pkgFiles, files map[string][]byte) (map[string][]byte, error) {
	gen, err := transform(files, std)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tc.GOVERSION, err)
	}
	if err := checkAPI(std, gen); err != nil {
		return nil, fmt.Errorf("%w: %s's bufio has %v", ErrAPI, tc.GOVERSION, err)
	}
	return gen, nil
}

// safeName makes a Go version usable in a file name: a development
// toolchain's is "devel go1.27-abcdef Mon Nov 30 ..." with spaces and
// colons.
func safeName(version string) string {
	b := []byte(version)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}
