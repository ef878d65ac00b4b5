package overlay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Names inside an overlay's directory.
const (
	overlayFile = "overlay.json" // go's -overlay file
	versionFile = "VERSION"      // what the overlay was made for, one line
	checkFile   = "check.json"   // the overlay for the compile check, at the temporary paths
	tmpPrefix   = ".tmp-"        // a directory being written
	staleAfter  = time.Hour      // a temporary directory this old was left by a killed generator
)

// overlayJSON is go's -overlay file format.
type overlayJSON struct {
	Replace map[string]string
}

// A pkgOverlay is the generated files of one standard-library package.
// An overlay holds bufio's, and under -stdout those of the packages
// internal/osstdout patches.
type pkgOverlay struct {
	path string            // import path, such as "bufio"
	std  map[string][]byte // the toolchain's Go files of the package, by base name, tests included
	gen  map[string][]byte // the generated files, by base name; after layout, only names std has
	// patch keeps the toolchain's files that gen does not replace (the
	// overlay changes a few files of the package, as -stdout does os's);
	// otherwise they are deleted and gen is the whole package.
	patch bool
	spans map[string][]span // by base name: where a merged file's lines came from
}

// sourcePositions rewrites, in a compiler's message, positions in the
// packages' merged files (src/PKG/NAME.go:LINE) to where the lines came
// from.
func sourcePositions(pkgs []*pkgOverlay, msg string) string {
	return compilerPos.ReplaceAllStringFunc(msg, func(m string) string {
		sub := compilerPos.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[3])
		for _, p := range pkgs {
			if filepath.ToSlash(sub[1]) == p.path {
				if pos := position(p.spans[sub[2]], line); pos != "" {
					return pos
				}
			}
		}
		return m
	})
}

// compilerPos is a position in a generated file as the compile check
// reports it, relative to the overlay's directory.
var compilerPos = regexp.MustCompile(`src[/\\](\S+)[/\\]([^/\\\s:]+\.go):(\d+)`)

// srcDir is the package's directory under GOROOT or the overlay's dir.
func (p pkgOverlay) srcDir(root string) string {
	return filepath.Join(root, "src", filepath.FromSlash(p.path))
}

// replacements maps each non-test file of the toolchain's packages to its
// generated file under dir, or to "" (deleted) if the generated package
// has no file of that name and is not a patch. After layout every
// generated file has a name the toolchain's package has.
func replacements(pkgs []*pkgOverlay, goroot, dir string) map[string]string {
	r := make(map[string]string)
	for _, p := range pkgs {
		for name := range p.std {
			if !p.patch && !strings.HasSuffix(name, "_test.go") {
				r[filepath.Join(p.srcDir(goroot), name)] = ""
			}
		}
		for name := range p.gen {
			r[filepath.Join(p.srcDir(goroot), name)] = filepath.Join(p.srcDir(dir), name)
		}
	}
	return r
}

// publish writes pkgs into a temporary directory beside ov.Dir, compiles
// them with goCmd, and renames the directory to ov.Dir. If another
// generator published the same overlay first, its result stands and this
// one is dropped.
func publish(tc Toolchain, pkgs []*pkgOverlay, ov *Overlay, goCmd string) error {
	root := filepath.Dir(ov.Dir)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	removeStale(root)
	tmp, err := os.MkdirTemp(root, tmpPrefix+filepath.Base(ov.Dir)+"-")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := writeOverlay(tmp, tc, pkgs, ov); err != nil {
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	var paths []string
	for _, p := range pkgs {
		paths = append(paths, p.path)
	}
	if err := compile(tc, goCmd, filepath.Join(tmp, checkFile), tmp, paths); err != nil {
		return fmt.Errorf("%w with %s: %v", ErrCompile, tc.GOVERSION, sourcePositions(pkgs, err.Error()))
	}
	if err := os.Remove(filepath.Join(tmp, checkFile)); err != nil {
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	if err := os.Rename(tmp, ov.Dir); err != nil {
		if _, statErr := os.Stat(ov.JSON); statErr == nil {
			return nil // another generator won the race; its overlay is the same
		}
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	ov.Generated = true
	return nil
}

// writeOverlay writes the generated files, the overlay file naming them
// at their published paths, the check overlay naming them where they are
// now, and the version file.
func writeOverlay(tmp string, tc Toolchain, pkgs []*pkgOverlay, ov *Overlay) error {
	for _, p := range pkgs {
		dir := p.srcDir(tmp)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for name, b := range p.gen {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				return err
			}
		}
	}
	for file, dir := range map[string]string{overlayFile: ov.Dir, checkFile: tmp} {
		b, err := json.MarshalIndent(overlayJSON{replacements(pkgs, tc.GOROOT, dir)}, "", "\t")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, file), append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	v := fmt.Sprintf("%s %s stream %s\n", tc.GOVERSION, tc.GOROOT, ov.Version)
	return os.WriteFile(filepath.Join(tmp, versionFile), []byte(v), 0o644)
}

// compile builds the packages with the overlay for tc's target, in dir,
// where no go.mod can pick another toolchain; GOFLAGS is cleared so a
// user's flags cannot change what is checked, and GOROOT is tc's, which
// go would not find by itself where tc.GOROOT is a link.
func compile(tc Toolchain, goCmd, overlay, dir string, pkgs []string) error {
	cmd := exec.Command(goCmd, append([]string{"build", "-overlay=" + overlay}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "GOROOT="+tc.GOROOT, "GOOS="+tc.GOOS, "GOARCH="+tc.GOARCH)
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(bytes.ReplaceAll(out, []byte(dir+string(filepath.Separator)), nil)))
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("%s", strings.ReplaceAll(msg, "\n", "; "))
	}
	return nil
}

// removeStale removes temporary directories left in root by generators
// that were killed mid-way.
func removeStale(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tmpPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// LinkGOROOT returns a symbolic link to tc's GOROOT in cacheDir, made
// atomically if it is missing: the path of a toolchain in the module
// cache, where the go command accepts no overlay, under which it does.
func LinkGOROOT(tc Toolchain, cacheDir string) (string, error) {
	sum := sha256.Sum256([]byte(tc.GOROOT))
	link := filepath.Join(cacheDir, "goroot-"+safeName(tc.GOVERSION)+"-"+hex.EncodeToString(sum[:])[:12])
	if target, err := os.Readlink(link); err == nil && target == tc.GOROOT {
		return link, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("%w: %v", ErrCache, err)
	}
	tmp := fmt.Sprintf("%s%s-%d", filepath.Join(cacheDir, tmpPrefix), filepath.Base(link), os.Getpid())
	os.Remove(tmp)
	if err := os.Symlink(tc.GOROOT, tmp); err != nil {
		return "", fmt.Errorf("%w: %v", ErrCache, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("%w: %v", ErrCache, err)
	}
	return link, nil
}
