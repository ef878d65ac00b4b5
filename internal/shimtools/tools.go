package shimtools

// Buffer says what a tool's input buffer is, and so what `stdiobuf build`
// should make of it over a file.
type Buffer int

const (
	// Default is a bufio.Reader from NewReader: 4096 bytes under bufio, the
	// policy's size (min(st_blksize, 128 KiB) by default) under stdiobuf.
	Default Buffer = iota
	// Scanner is a bufio.Scanner with no Buffer call: 4096 bytes to start
	// under bufio, the policy's size under stdiobuf (stream's Scanner reads
	// with it and still limits tokens to bufio.MaxScanTokenSize).
	Scanner
	// Fixed is a NewReaderSize with a size of the tool's own, which stream
	// keeps as bufio does: stdiobuf changes nothing for it.
	Fixed
)

func (b Buffer) String() string {
	switch b {
	case Default:
		return "bufio.NewReader"
	case Scanner:
		return "bufio.Scanner"
	case Fixed:
		return "bufio.NewReaderSize"
	}
	return "unknown"
}

// Tool is one third-party command at a pinned version, with what it takes to
// build it, test it and run it over a file.
type Tool struct {
	Name    string // short name in reports: "gojq"
	Module  string // module path: "github.com/itchyny/gojq"
	Version string // pinned release: "v0.12.17"
	Main    string // the command's package, relative to the module root
	// Tests are the packages whose tests CI compares; AllTests, when set,
	// the wider set bench/shimtests.sh compares.
	Tests    []string
	AllTests []string
	// Args come first in a run; then FileFlag (if any) and the input file,
	// or nothing when the tool is to read standard input.
	Args     []string
	FileFlag string
	// Buffer is how the tool reads its input, Size the size it asks for
	// when Buffer is Fixed.
	Buffer Buffer
	Size   int
	// LinesDiv divides the seed's line count for the benchmark's input:
	// a tool whose time is parsing, not I/O, gets a smaller file so that the
	// whole benchmark stays within minutes.
	LinesDiv int
	// Why it was chosen, for the results file.
	Why string
}

// Command returns the arguments of a run over input, or over standard input
// when input is "".
func (t Tool) Command(input string) []string {
	args := append([]string(nil), t.Args...)
	if input == "" {
		return args
	}
	if t.FileFlag != "" {
		args = append(args, t.FileFlag)
	}
	return append(args, input)
}

// ID is the module query for `go mod download`: module@version.
func (t Tool) ID() string { return t.Module + "@" + t.Version }

// uroot is one release of u-root for its several text tools: their tests
// share the release, and the wider set is the text-processing commands
// (the rest of cmds/core mounts, configures networks or wants a VM).
const (
	urootModule  = "github.com/u-root/u-root"
	urootVersion = "v0.15.0"
)

var urootText = []string{
	"./cmds/core/base64", "./cmds/core/cat", "./cmds/core/cmp", "./cmds/core/comm",
	"./cmds/core/grep", "./cmds/core/head", "./cmds/core/hexdump", "./cmds/core/md5sum",
	"./cmds/core/seq", "./cmds/core/shasum", "./cmds/core/sort", "./cmds/core/strings",
	"./cmds/core/tail", "./cmds/core/tee", "./cmds/core/tr", "./cmds/core/uniq",
	"./cmds/core/wc", "./cmds/core/xargs",
}

// Tools returns the tools, each time a new slice a caller may change.
// Every one was checked for its bufio use at its pinned version
// (grep -rn bufio in the module): the line named in Why is where it reads.
func Tools() []Tool {
	return []Tool{
		{
			Name: "gojq", Module: "github.com/itchyny/gojq", Version: "v0.12.17",
			Main: "./cmd/gojq", Tests: []string{"./..."},
			Args: []string{"-R", "length"}, Buffer: Default, LinesDiv: 1,
			Why: "jq in Go; with -R it reads raw lines through bufio.NewReader(...).ReadString('\\n') " +
				"(cli/inputs.go) from files and stdin, and writes each result unbuffered to os.Stdout; " +
				"v0.12.17 is the newest whose dependencies the proxy serves (v0.12.20 needs an itchyny/go-yaml pseudo-version it refuses)",
		},
		{
			Name: "grep", Module: urootModule, Version: urootVersion,
			Main: "./cmds/core/grep", Tests: []string{"./cmds/core/grep"}, AllTests: urootText,
			Args: []string{"xyz"}, Buffer: Scanner, LinesDiv: 1,
			Why: "u-root's grep: a bufio.Scanner per file or stdin and a bufio.NewWriter on stdout (cmds/core/grep/grep.go)",
		},
		{
			Name: "uniq", Module: urootModule, Version: urootVersion,
			Main: "./cmds/core/uniq", Tests: []string{"./cmds/core/uniq"}, AllTests: urootText,
			Buffer: Default, LinesDiv: 1,
			Why: "u-root's uniq: bufio.NewReader(...).ReadBytes('\\n') over a file or stdin, one unbuffered Write per output line (cmds/core/uniq/uniq.go)",
		},
		{
			Name: "wc", Module: urootModule, Version: urootVersion,
			Main: "./cmds/core/wc", Tests: []string{"./cmds/core/wc"}, AllTests: urootText,
			Buffer: Fixed, Size: 8192, LinesDiv: 1,
			Why: "u-root's wc: bufio.NewReaderSize(in, 8192) (cmds/core/wc/wc.go), the case where the tool fixes the size and stdiobuf changes nothing",
		},
		{
			Name: "go-junit-report", Module: "github.com/jstemmer/go-junit-report/v2", Version: "v2.1.0",
			Main: ".", Tests: []string{"./..."},
			FileFlag: "-in", Buffer: Default, LinesDiv: 10,
			Why: "turns `go test -v` output into JUnit XML; reads lines through bufio.NewReader " +
				"(parser/gotest/internal/reader/reader.go) from -in FILE or stdin; its time is regular expressions per line, " +
				"so it runs on a tenth of the seed's lines",
		},
	}
}
