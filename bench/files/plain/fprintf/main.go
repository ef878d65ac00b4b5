// Command fprintf writes the numbers below N to PATH, one fmt.Fprintf per
// line, into the *os.File os.Create returns: the idiom as Go programmers
// write it, with no bufio.
//
//	fprintf N PATH
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fprintf N PATH")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 0 {
		fmt.Fprintf(os.Stderr, "fprintf: bad record count %q\n", os.Args[1])
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fprintf:", err)
		os.Exit(1)
	}
	for i := range n {
		if _, err := fmt.Fprintf(f, "%d\n", i); err != nil {
			fmt.Fprintln(os.Stderr, "fprintf:", err)
			os.Exit(1)
		}
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "fprintf:", err)
		os.Exit(1)
	}
}
