// Command scan is plain/scan with a bufio.Reader added by hand between
// standard input and fmt.Fscan.
//
//	scan < INTS
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: scan < INTS")
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	var count, sum int64
	for {
		var x int64
		_, err := fmt.Fscan(in, &x)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "scan: integer %d: %v\n", count+1, err)
			os.Exit(1)
		}
		count++
		sum += x
	}
	fmt.Println(count, sum)
}
