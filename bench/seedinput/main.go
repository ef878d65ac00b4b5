// Command seedinput prints the path of the seed's input (the head
// benchmark's file, internal/seedinput) for a line count, making it first
// where cmd/headbench caches it if it is not there yet, so that the shell
// scripts in bench/ time the same bytes as headbench.
//
// Usage: go run ./bench/seedinput [LINES]   (default 290955)
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

func main() {
	lines := seedinput.Lines
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: seedinput [LINES]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "seedinput: want a positive line count, got %q\n", os.Args[1])
			os.Exit(2)
		}
		lines = n
	}
	dir := os.TempDir()
	if base, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(base, "stdiobuf")
	}
	path, _, err := seedinput.File(dir, lines, seedinput.DefaultSeed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seedinput:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}
