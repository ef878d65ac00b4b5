// Command fprintf is plain/fprintf with a bufio.Writer added by hand
// between fmt.Fprintf and the file.
//
//	fprintf N PATH
package main

import (
	"bufio"
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
	w := bufio.NewWriter(f)
	for i := range n {
		if _, err := fmt.Fprintf(w, "%d\n", i); err != nil {
			fmt.Fprintln(os.Stderr, "fprintf:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "fprintf:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "fprintf:", err)
		os.Exit(1)
	}
}
