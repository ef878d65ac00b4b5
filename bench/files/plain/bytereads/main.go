// Command bytereads reads standard input one byte per os.Stdin.Read call
// until the end of input and prints the bytes and the newlines it read.
//
//	bytereads < FILE
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: bytereads < FILE")
		os.Exit(2)
	}
	var b [1]byte
	var bytes, lines int64
	for {
		n, err := os.Stdin.Read(b[:])
		if n == 1 {
			bytes++
			if b[0] == '\n' {
				lines++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bytereads:", err)
			os.Exit(1)
		}
	}
	fmt.Println(bytes, lines)
}
