package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/overlay"
)

// valueFlags are the go command's build and test flags that take their
// value as the next argument when written without "=".
var valueFlags = map[string]bool{
	"C": true, "p": true, "o": true, "asmflags": true, "buildmode": true, "compiler": true,
	"gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true, "mod": true,
	"modfile": true, "overlay": true, "pgo": true, "pkgdir": true, "tags": true, "toolexec": true,
	"covermode": true, "coverpkg": true, "exec": true, "coverprofile": true, "cpuprofile": true,
	"memprofile": true, "blockprofile": true, "mutexprofile": true, "outputdir": true, "trace": true,
	"run": true, "skip": true, "bench": true, "benchtime": true, "count": true, "cpu": true,
	"parallel": true, "timeout": true, "list": true, "fuzz": true, "fuzztime": true,
	"fuzzminimizetime": true, "shuffle": true, "vet": true, "memprofilerate": true,
	"blockprofilerate": true, "mutexprofilefraction": true,
}

// goArgs is a command line for the go command, as stdiobuf reads it.
type goArgs struct {
	dir     string          // -C's directory, or "" for the current one
	overlay string          // the user's own -overlay file, removed from args
	opts    overlay.Options // stdiobuf's own flags, removed from args
	help    bool            // -h, -help or --help before the packages
	args    []string        // the rest, in order, without -C
}

// ownFlags are stdiobuf's flags, and -h, which are not go's.
var ownFlags = map[string]bool{"stdout": true, "files": true, "policy": true, "h": true, "help": true}

// chdirFlag returns the directory of a as a -C flag (-C, --C, -C=dir,
// --C=dir), taking it from next when a has none, and whether a is one and
// whether next was used.
func chdirFlag(a, next string, hasNext bool) (dir string, ok, usedNext bool, err error) {
	if !strings.HasPrefix(a, "-") {
		return "", false, false, nil
	}
	name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
	if name != "C" {
		return "", false, false, nil
	}
	if !hasValue {
		if !hasNext {
			return "", true, false, fmt.Errorf("flag needs an argument: %s", a)
		}
		value, usedNext = next, true
	}
	if value == "" {
		return "", true, usedNext, fmt.Errorf("%s needs a directory", a)
	}
	return value, true, usedNext, nil
}

// parseArgs finds stdiobuf's own flags (-stdout, -files, -policy P), -h, -C and
// -overlay in the arguments of `go verb`. stdiobuf's flags are taken
// anywhere before the first package; after it, build, install and vet
// refuse them with a message that says where they go, and test leaves them
// to the test binary, as go test does with flags it does not know. -C is
// taken as the first of go's flags, as go takes it: stdiobuf's own flags
// may come before it, since they are not go's; anywhere else, or a second
// time, it is refused, as go refuses it. Scanning stops at "--", at test's
// -args, and for run at the first argument that is not a flag: what
// follows belongs to the program.
func parseArgs(verb string, args []string) (goArgs, error) {
	var g goArgs
	packages := false // an argument that is not a flag has been seen
	goFlags := 0      // go's flags seen so far
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || (verb == "test" && (a == "-args" || a == "--args")) {
			g.args = append(g.args, args[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if verb == "run" {
				g.args = append(g.args, args[i:]...)
				break
			}
			packages = true
			g.args = append(g.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if ownFlags[name] && packages && verb == "test" {
			g.args = append(g.args, a)
			continue
		}
		if ownFlags[name] {
			if packages {
				return g, fmt.Errorf("%s goes before the packages: stdiobuf %s [-stdout] [-files] [-policy P] [go flags] [packages]", a, verb)
			}
			switch {
			case name == "policy" && !hasValue:
				if i+1 == len(args) {
					return g, fmt.Errorf("flag needs an argument: %s", a)
				}
				i++
				g.opts.Policy = args[i]
			case name == "policy":
				g.opts.Policy = value
			case hasValue:
				return g, fmt.Errorf("%s takes no value", a)
			case name == "stdout":
				g.opts.Stdout = true
			case name == "files":
				g.opts.Stdout, g.opts.Files = true, true
			default:
				g.help = true
			}
			continue
		}
		goFlags++
		if name == "C" {
			if goFlags > 1 || packages {
				return g, fmt.Errorf("%s must be the first of go's flags, as go requires: stdiobuf %s [-stdout] [-files] [-policy P] -C dir [go flags] [packages], or stdiobuf -C dir %s [flags] [packages]", a, verb, verb)
			}
			dir, _, usedNext, err := chdirFlag(a, next(args, i), i+1 < len(args))
			if err != nil {
				return g, err
			}
			if usedNext {
				i++
			}
			g.dir = dir
			continue
		}
		if !hasValue && valueFlags[name] {
			if i+1 == len(args) {
				return g, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			value = args[i]
			if name != "overlay" {
				g.args = append(g.args, a, value)
			}
		} else if name != "overlay" {
			g.args = append(g.args, a)
		}
		if name == "overlay" {
			g.overlay = value
		}
	}
	return g, nil
}

// next returns args[i+1], or "" past the end.
func next(args []string, i int) string {
	if i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// goCommandLine returns the arguments of the go command stdiobuf runs for
// verb and ga with the overlay file: -C first, where go requires it.
func goCommandLine(verb string, ga goArgs, file string) []string {
	line := []string{verb}
	if ga.dir != "" {
		line = append(line, "-C", ga.dir)
	}
	return append(append(line, "-overlay="+file), ga.args...)
}

// libraryBuildMode returns the build mode named in args if it makes a
// library for a C program (c-shared, c-archive), else "".
func libraryBuildMode(args []string) string {
	mode := ""
	for i, a := range args {
		name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "buildmode" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !ok && i+1 < len(args) {
			value = args[i+1]
		}
		mode = value
	}
	if mode == "c-shared" || mode == "c-archive" {
		return mode
	}
	return ""
}

// goflagsFields splits a GOFLAGS value into its flags as the go command
// does: at spaces, a flag written between single or double quotes taken
// whole, without unescaping. An unterminated quote takes the rest.
func goflagsFields(s string) []string {
	var fields []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return fields
		}
		if q := s[0]; q == '\'' || q == '"' {
			field, rest, _ := strings.Cut(s[1:], string(q))
			fields, s = append(fields, field), rest
			continue
		}
		end := strings.IndexAny(s, " \t\n\r")
		if end < 0 {
			end = len(s)
		}
		fields, s = append(fields, s[:end]), s[end:]
	}
}

// stdCoverPattern returns the first -coverpkg pattern in args that may
// match a package of the standard library, or "". go's cover tool reads
// the files of the packages it instruments from disk, not through the
// overlay (golang/go#73802), so such a package would be built from the
// toolchain's own source: the program would get the toolchain's bufio (and
// os), and go's build cache would keep it under the overlay's key. A
// pattern can only match the standard library if it is not relative, not
// absolute and its first element has no dot but a wildcard's (all, std,
// bufio, net/..., ...). Flags after "--" or -args are the program's.
func stdCoverPattern(args []string) string {
	for i, a := range args {
		if a == "--" || a == "-args" || a == "--args" {
			break
		}
		name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "coverpkg" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !ok && i+1 < len(args) {
			value = args[i+1]
		}
		for _, p := range strings.Split(value, ",") {
			first, _, _ := strings.Cut(p, "/")
			if p != "" && first != "." && first != ".." && !filepath.IsAbs(p) && !strings.Contains(strings.ReplaceAll(first, "...", ""), ".") {
				return p
			}
		}
	}
	return ""
}

// goflagsOverlay returns the -overlay file named in GOFLAGS, if any.
func goflagsOverlay() string {
	var file string
	for _, f := range goflagsFields(os.Getenv("GOFLAGS")) {
		name, value, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
		if ok && name == "overlay" {
			file = value
		}
	}
	return file
}

// refusal returns the error for a build stdiobuf cannot make as asked,
// its flags and GOFLAGS taken together, or nil.
func refusal(ga goArgs) error {
	args := append(goflagsFields(os.Getenv("GOFLAGS")), ga.args...)
	if mode := libraryBuildMode(args); ga.opts.Stdout && mode != "" {
		return &exitError{msg: "-stdout cannot be used with -buildmode=" + mode + ": a Go library runs no exit hooks when its C host exits, so what it buffered would be lost", code: 2}
	}
	if p := stdCoverPattern(args); p != "" {
		return &exitError{msg: "-coverpkg " + p + " may cover the standard library, whose files go's cover tool reads from disk, not from the overlay: the program would get the toolchain's own bufio (golang/go#73802); use -cover alone or -coverpkg with your own packages (./...)", code: 2}
	}
	return nil
}

// runGo runs `go verb -overlay=FILE args` for ga, as parseArgs read the
// command line, and returns go's exit status as an exitError.
func runGo(verb string, ga goArgs) error {
	if err := refusal(ga); err != nil {
		return err
	}
	g, err := findGo(ga.dir)
	if err != nil {
		return err
	}
	ov, err := g.overlay(ga.opts)
	if err != nil {
		return err
	}
	file := ov.JSON
	user := ga.overlay
	if user == "" {
		user = goflagsOverlay() // the command line's -overlay would override it
	}
	if user != "" {
		merged, err := mergeOverlay(user, ga.dir, ov.JSON, g.tc.GOROOT)
		if err != nil {
			return err
		}
		defer os.Remove(merged)
		file = merged
	}
	goflags, err := withOverlay(os.Getenv("GOFLAGS"), file)
	if err != nil {
		return err
	}
	cmd := exec.Command(g.path, goCommandLine(verb, ga, file)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(append(os.Environ(), g.env...), "GOFLAGS="+goflags)
	// A terminal's interrupt reaches go too: let go decide what it means,
	// and report its status.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return &exitError{code: exitCode(err)}
		}
		return err
	}
	return nil
}

// withOverlay returns goflags, a GOFLAGS value, with -overlay=file added
// last, where it overrides an -overlay before it: the go command stdiobuf
// runs and every process that one starts (a test binary, the go command a
// test runs) build with the overlay. file is quoted, as GOFLAGS allows, if
// it holds a space.
func withOverlay(goflags, file string) (string, error) {
	flag := "-overlay=" + file
	if strings.ContainsAny(flag, " \t\n\r'\"") {
		switch {
		case !strings.Contains(flag, "'"):
			flag = "'" + flag + "'"
		case !strings.Contains(flag, `"`):
			flag = `"` + flag + `"`
		default:
			return "", fmt.Errorf("the overlay's path %q holds both kinds of quote, which GOFLAGS cannot carry", file)
		}
	}
	return strings.TrimSpace(goflags + " " + flag), nil
}

// mergeOverlay writes a temporary overlay with the replacements of the
// user's overlay file and of stdiobuf's, and returns its path. A user
// overlay that replaces a file of bufio's directory, or any file
// stdiobuf's replaces (package os's under -stdout), is refused.
func mergeOverlay(user, dir, ours, goroot string) (string, error) {
	userPath := user
	if !filepath.IsAbs(userPath) && dir != "" {
		userPath = filepath.Join(dir, userPath)
	}
	var u, o overlayFile
	if err := readJSON(userPath, &u); err != nil {
		return "", fmt.Errorf("-overlay %s: %v", user, err)
	}
	if err := readJSON(ours, &o); err != nil {
		return "", err
	}
	bufioDir := filepath.Join(goroot, "src", "bufio")
	for from, to := range u.Replace {
		abs := from
		if !filepath.IsAbs(abs) {
			if abs, _ = filepath.Abs(filepath.Join(dir, from)); abs == "" {
				abs = from
			}
		}
		if _, clash := o.Replace[filepath.Clean(abs)]; clash || filepath.Dir(filepath.Clean(abs)) == bufioDir {
			return "", fmt.Errorf("-overlay %s replaces %s, which stdiobuf's overlay replaces with stream; use one or the other", user, from)
		}
		o.Replace[from] = to
	}
	f, err := os.CreateTemp("", "stdiobuf-overlay-*.json")
	if err != nil {
		return "", err
	}
	err = json.NewEncoder(f).Encode(o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// overlayFile is the go command's -overlay format.
type overlayFile struct {
	Replace map[string]string
}

func readJSON(path string, v *overlayFile) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	if v.Replace == nil {
		v.Replace = make(map[string]string)
	}
	return nil
}
