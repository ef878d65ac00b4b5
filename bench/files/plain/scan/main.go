// Command scan reads integers from standard input with fmt.Scan until the
// end of input and prints how many it read and their sum.
//
//	scan < INTS
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: scan < INTS")
		os.Exit(2)
	}
	var count, sum int64
	for {
		var x int64
		_, err := fmt.Scan(&x)
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
