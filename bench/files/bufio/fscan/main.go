// Command fscan is plain/fscan with a bufio.Reader added by hand between
// the file and fmt.Fscan.
//
//	fscan PATH
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fscan PATH")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fscan:", err)
		os.Exit(1)
	}
	defer f.Close()
	in := bufio.NewReader(f)
	var count, sum int64
	for {
		var x int64
		_, err := fmt.Fscan(in, &x)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "fscan: %s: integer %d: %v\n", os.Args[1], count+1, err)
			os.Exit(1)
		}
		count++
		sum += x
	}
	fmt.Println(count, sum)
}
