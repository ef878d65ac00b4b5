// Command bytereads is plain/bytereads with a bufio.Reader added by hand
// over standard input: the same one-byte Read calls, on the Reader.
//
//	bytereads < FILE
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: bytereads < FILE")
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	var b [1]byte
	var bytes, lines int64
	for {
		n, err := in.Read(b[:])
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
