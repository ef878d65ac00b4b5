// Command seedinput prints the path of headbench's input (internal/seedinput)
// for a line count, making it first where cmd/headbench caches it if it is
// not there yet, so that the shell scripts in bench/ time the same bytes as
// headbench.
//
// Usage: go run ./bench/seedinput [LINES]   (default 290955)
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: it returns the exit status, 2 for a bad argument and
// 1 when the file cannot be made.
func run(args []string, stdout, stderr io.Writer) int {
	lines := seedinput.Lines
	switch len(args) {
	case 0:
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "seedinput: want a positive line count, got %q\n", args[0])
			return 2
		}
		lines = n
	default:
		fmt.Fprintln(stderr, "usage: seedinput [LINES]")
		return 2
	}
	dir := os.TempDir()
	if base, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(base, "stdiobuf")
	}
	path, _, err := seedinput.File(dir, lines, seedinput.DefaultSeed)
	if err != nil {
		fmt.Fprintln(stderr, "seedinput:", err)
		return 1
	}
	fmt.Fprintln(stdout, path)
	return 0
}
