package main

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
)

const usage = `usage: stdiobuf build|install|run|test|vet [-stdout] [-files] [-policy P] [-C dir] [go flags] [packages]
       stdiobuf overlay [-stdout] [-files] [-policy P] [-C dir]
       stdiobuf version [-stdout] [-files] [-policy P] [-C dir]
       stdiobuf check [-C dir] [go vet flags] [packages]
       stdiobuf help [command | stream | policies]
`

const helpAbout = `stdiobuf builds Go programs whose code you do not change with the
standard library's bufio replaced by package stream, which buffers as C's
stdio does: a bufio stream over a file gets a buffer sized from the file
system's block size (st_blksize), one over a terminal is line buffered,
and coreutils stdbuf works. A stream over anything but a file descriptor
(a network connection, a bytes.Buffer) behaves exactly as bufio's.

`

// helpVerbs describes each command, by name.
var helpVerbs = map[string]string{
	"build": `build, install, run, test, vet
    Run the go command of that name with stdiobuf's overlay, which compiles
    package stream as bufio for the program, its dependencies and the
    standard library; go's flags and exit status are go's (go help build).
    The go command and every process it starts (a test binary, a go build
    that a test runs) get the overlay in GOFLAGS, merged with yours.
`,
	"overlay": `overlay
    Print the overlay file, for go's own commands:
        go build -overlay=$(stdiobuf overlay) ./...
        GOFLAGS=-overlay=$(stdiobuf overlay) go test ./...
    It is made for the Go toolchain and target (GOOS, GOARCH) that go env
    reports here: make one per target you build for.
`,
	"version": `version
    Print the Go toolchain, target and stream version the overlay is made
    for, the default policy it builds in, and the overlay's path.
`,
	"check": `check [go vet flags] [packages]
    Report where the packages pay one system call per record on an
    *os.File (writes and reads in a loop without a buffer), bufio.Writers
    that a path leaves without Flush, and Scanner loops that never check
    Err, with suggested fixes (-fix applies them, -diff shows them). It is
    go vet with package check's analyzer (its page is among the docs
    listed below).
`,
	"help": `help [command | stream | policies]
    Print this text, or about one command, or package stream's
    documentation, or its policies.
`,
}

const helpFlags = `Flags, anywhere before the packages:
    -stdout
        Also buffer os.Stdout as a C program's stdout is: line buffered on
        a terminal, fully buffered elsewhere, flushed at exit, before
        anything else sees the descriptor and before a read of standard
        input; no byte waits longer than STDIOBUF_MAXDELAY. The first
        build with -stdout recompiles every package that imports os,
        nearly all of a program's; later builds use go's cache.
    -C dir
        Go's -C: change to dir before anything else, there choosing the
        toolchain the overlay is made for (go.mod's toolchain line). As
        go requires, it is the first of go's flags (-stdout, -files and
        -policy, which are not go's, may come before it) or comes before
        the command, as stdiobuf -C dir build ...; anywhere else it is
        refused.
    -files
        Implies -stdout, and buffers every regular file (and block
        device) the program writes or reads (standard input too) as
        fopen's FILE does (Linux, Windows): a write(2) or read(2) per buffer, not
        per Write or small Read; every file is written out, and the
        offset of every file read given back, before the program's next
        plain read, write to another file, path operation (os's and
        os.Root's), child, signal or exit, so only a reader polling a
        file sees a delay, at most STDIOBUF_MAXDELAY. Standard input on
        a pipe is buffered too, on Linux,
        where no other reader of the pipe is seen (through tee(2), so
        that the pipe gives up only the bytes the program used), and
        fmt's scans read a buffered file a call at a time (its page is
        among the docs listed below).
    -policy P
        Build P in as the program's default buffering policy: a named
        policy (blksize, the default: min(st_blksize, 128 KiB); bufio:
        bufio's 4096; the others: stdiobuf help policies) or a size such
        as 65536 or 64K. STDIOBUF_POLICY still overrides it at run time.

A program built with stdiobuf reads, at run time:
    STDIOBUF_POLICY=P
        The buffering policy, as -policy; bufio gives bufio's behaviour back.
    _STDBUF_I, _STDBUF_O, _STDBUF_E
        Set by coreutils stdbuf -i, -o, -e (0 unbuffered, L line buffered,
        or a size) for standard input, output and error:
        stdbuf -oL prog | grep x.
    STDIOBUF_MAXDELAY=D
        With -stdout: the longest a byte waits in standard output's buffer,
        a duration such as 50ms (the default), or none for no bound (C's
        rule: until the buffer is full, a flush or exit).
    STDIOBUF_REPORT=1 or STDIOBUF_REPORT=FILE
        At exit, one line per bufio, -stdout or -files stream over a
        descriptor: its file, mode, size and why, its system calls and
        bytes, and how many calls the buffer saved; then a total. 1 prints
        it on standard error; anything else is a file to write it to. Unset,
        empty or 0: no report, and nothing counted (its page is among the
        docs listed below).

`

const helpMore = `More, from this binary:
    stdiobuf help stream     package stream's documentation (bufio's drop-in)
    stdiobuf help policies   the policies -policy and STDIOBUF_POLICY take
`

// moreHelp names the README and the docs pages of the source this binary
// was built from, in dir, or says where they are not if dir is "".
func moreHelp(dir string) string {
	if dir == "" {
		return "Its README and docs/ are in the source of module " + moduleVersion() + ", which is\n" +
			"not where this stdiobuf was built from, or it was built with -trimpath.\n"
	}
	var b strings.Builder
	b.WriteString("Its README and docs/, in the source it was built from (module\n" + moduleVersion() + "):\n")
	for _, page := range []string{"README.md", "docs/overlay.md", "docs/stdout.md", "docs/policies.md", "docs/files.md", "docs/check.md", "docs/report.md"} {
		b.WriteString("    " + filepath.Join(dir, filepath.FromSlash(page)) + "\n")
	}
	return b.String()
}

// help prints stdiobuf's help, about one command if args names one.
func help(w io.Writer, args []string) error {
	topic := ""
	switch {
	case len(args) > 1:
		return &exitError{msg: "help takes one command at most", code: 2}
	case len(args) == 1 && goVerbs[args[0]]:
		topic = "build"
	case len(args) == 1 && (args[0] == "stream" || args[0] == "policies"):
		text, err := streamDoc(args[0])
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, text)
		return err
	case len(args) == 1:
		if _, ok := helpVerbs[args[0]]; !ok {
			return &exitError{msg: fmt.Sprintf("unknown command %q (run stdiobuf help)", args[0]), code: 2}
		}
		topic = args[0]
	}
	var b strings.Builder
	b.WriteString(helpAbout)
	b.WriteString(usage + "\n")
	for _, verb := range []string{"build", "overlay", "version", "check", "help"} {
		if topic == "" || topic == verb {
			b.WriteString(helpVerbs[verb])
		}
	}
	b.WriteString("\n" + helpFlags)
	b.WriteString(cacheHelp())
	b.WriteString(helpMore)
	b.WriteString(moreHelp(sourceDir(thisFile())))
	_, err := io.WriteString(w, b.String())
	return err
}

// cacheHelp says where the overlays are, how much they hold and how to
// clear them.
func cacheHelp() string {
	dir, err := cacheDir()
	if err != nil {
		return "The overlays are cached in the user cache directory, which is unknown here: " + err.Error() + ".\n\n"
	}
	n, size := 0, int64(0)
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Name() == "overlay.json" {
			n++
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			size += info.Size()
		}
		return nil
	})
	return fmt.Sprintf(`The overlays are made once per Go toolchain, target, flags and stream
version, in %s (now %d, %.1f MB; one is about
0.2 MB). Remove that directory to clear them: rm -rf %s
The compiled packages are in go's build cache (go clean -cache).

`, dir, n, float64(size)/1e6, shellQuote(dir))
}

// shellQuote quotes s for a POSIX shell if it needs it.
func shellQuote(s string) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
