//go:build linux

package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/fsmount"
)

// The kinds of figure.
const (
	kindPolicy = "policy" // getdelim --loop under a named policy
	kindSweep  = "sweep"  // getdelim --loop with a fixed buffer size
	kindPeer   = "peer"   // a program a user would pick instead
)

// policy is a getdelim --policy timed as a figure on every path, with the
// rule it stands for as the table of the world's rules states it.
type policy struct {
	name string
	rule string
}

// policies are the policies in report order; bufsiz, glibc's rule today,
// is the baseline of the headline. A policy added here gets its figures,
// its rows in the tables and its bars in the charts. The rules are
// stream's (stream/policy.go cites each source beside its constant).
var policies = []policy{
	{"bufsiz", "glibc today: min(st_blksize, 8 KiB)"},
	{"blksize", "the default, the glibc proposal's: min(st_blksize, 128 KiB), at least 4 KiB"},
	{"bufio", "Go's bufio: 4 KiB"},
	{"rust", "Rust's BufReader and BufWriter: 8 KiB"},
	{"coreutils", "coreutils' io_blksize: 256 KiB or more, a multiple of st_blksize"},
	{"cpython", "CPython 3.14's open(): max(min(st_blksize, 8 MiB), 128 KiB)"},
	{"readahead", "blksize, and 4 more input buffers read ahead by a goroutine"},
}

// policyNames returns the names --policies takes, in report order.
func policyNames() []string {
	names := make([]string, len(policies))
	for i, p := range policies {
		names[i] = p.name
	}
	return names
}

// mountNames returns the file systems internal/fsmount mounts.
func mountNames() []string {
	var names []string
	for _, fs := range fsmount.All() {
		names = append(names, fs.Name)
	}
	return names
}

// figure is one command to time on every target.
type figure struct {
	Kind string
	// Key is the figure's part of the benchmark name: policy=blksize (the
	// loop path), path=copy/policy=blksize, policy=65536 or peer=head.
	Key   string
	Title string
	// Path and Policy are a policy figure's path and policy name.
	Path   string
	Policy string
	// Size is the buffer size of a sweep figure.
	Size int64
	// getdelim figures count their calls with --stats, peers with strace.
	getdelim bool
	// stdin says whether the input is the command's standard input; cat
	// takes it as an argument, as in `cat input > /dev/null`.
	stdin bool
	// args returns the command line for n lines of input.
	args func(n int64, input string) []string
}

// shell returns the command as a user would type it, with the input named
// "input".
func (f *figure) shell(n int64) string {
	argv := f.args(n, "input")
	argv[0] = shortName(argv[0])
	s := strings.Join(argv, " ")
	if f.stdin {
		s += " < input"
	}
	return s + " > /dev/null"
}

func shortName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// planFigures returns the figures o asks for that t can run, and a note for
// each that t cannot.
func planFigures(o *options, t *tools) (figs []*figure, notes []string) {
	if t.getdelim == "" {
		notes = append(notes, "getdelim: left out, with every policy and sweep figure: "+t.missing["getdelim"])
	} else {
		for _, path := range o.paths {
			for _, p := range o.policies {
				figs = append(figs, policyFigure(path, p, t.getdelim))
			}
		}
		for _, size := range o.sweep {
			figs = append(figs, sweepFigure(size, t.getdelim))
		}
	}
	for _, name := range o.peers {
		f, why := peerFigure(name, t)
		if f == nil {
			notes = append(notes, fmt.Sprintf("peer %s: left out: %s", name, why))
			continue
		}
		figs = append(figs, f)
	}
	return figs, notes
}

// policyKey is the key of the figure of policy on path.
func policyKey(path, policy string) string {
	if path == pathLoop {
		return "policy=" + policy
	}
	return "path=" + path + "/policy=" + policy
}

// policyFigure is getdelim under policy on path.
func policyFigure(path, policy, bin string) *figure {
	title, flags := "getdelim --loop, policy "+policy, []string{"--loop"}
	if path == pathCopy {
		title, flags = "getdelim -n, policy "+policy, nil
	}
	f := getdelimFigure(kindPolicy, policyKey(path, policy), title, bin, append(flags, "--policy", policy))
	f.Path, f.Policy = path, policy
	return f
}

// sweepFigure is getdelim --loop with size bytes for both streams.
func sweepFigure(size int64, bin string) *figure {
	policy := strconv.FormatInt(size, 10)
	f := getdelimFigure(kindSweep, policyKey(pathLoop, policy), "getdelim --loop, "+sizeName(size)+" both streams", bin, []string{"--loop", "--policy", policy})
	f.Size = size
	return f
}

// getdelimFigure is getdelim with flags, then -n N, reading standard input.
func getdelimFigure(kind, key, title, bin string, flags []string) *figure {
	return &figure{
		Kind: kind, Key: key, Title: title, getdelim: true, stdin: true,
		args: func(n int64, _ string) []string {
			return append(append([]string{bin}, flags...), "-n", strconv.FormatInt(n, 10))
		},
	}
}

// peer is a program a user would pick instead of getdelim --loop.
type peer struct {
	name  string // what --peers takes; the figure's key is peer=NAME
	tool  string // the program, as tools names it
	title string
	args  []string // before -n N
	// rule, if set, puts the peer in the table of the world's rules.
	rule string
}

// peers are the peers in report order. c-default and c-rule are the pair
// whose ratio is glibc's own gain from the policy (see gains), and the
// C loops of the table of the world's rules; c-default is its reference.
var peers = []peer{
	{"head", "head", "GNU head", nil, ""},
	{"c-default", "cloop", "C getdelim/fwrite loop, glibc default", []string{"-i", "default", "-o", "default"},
		"C on glibc today: min(st_blksize, 8 KiB)"},
	{"c-rule", "cloop", "C getdelim/fwrite loop, min(st_blksize, 128K)", []string{"-i", "rule", "-o", "rule"},
		"C under the glibc proposal: min(st_blksize, 128 KiB)"},
	{"go-bufio", "bufioloop", "Go bufio ReadSlice/Write loop, 4K (default)", nil, ""},
	{"cat", "cat", "cat: the floor", nil, ""},
}

// peerNames returns the names --peers takes, in report order.
func peerNames() []string {
	names := make([]string, len(peers))
	for i, p := range peers {
		names[i] = p.name
	}
	return names
}

// peerFigure returns the figure of the peer name, or nil and why it is
// missing.
func peerFigure(name string, t *tools) (*figure, string) {
	i := slices.IndexFunc(peers, func(p peer) bool { return p.name == name })
	if i < 0 {
		return nil, "unknown peer"
	}
	p := peers[i]
	bin := map[string]string{"cloop": t.cloop, "bufioloop": t.bufioloop, "head": t.head, "cat": t.cat}[p.tool]
	if bin == "" {
		return nil, t.missing[p.tool]
	}
	f := &figure{Kind: kindPeer, Key: "peer=" + name, Title: p.title}
	if name == "cat" {
		// `cat input > /dev/null`: cat opens the file itself.
		f.args = func(_ int64, input string) []string { return []string{bin, input} }
		return f, ""
	}
	f.stdin = true
	f.args = func(n int64, _ string) []string {
		return append(append([]string{bin}, p.args...), "-n", strconv.FormatInt(n, 10))
	}
	return f, ""
}

// sizeName writes a byte count the short way: 1K, 128K, 1M, or bytes.
func sizeName(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return strconv.FormatInt(n, 10)
}
