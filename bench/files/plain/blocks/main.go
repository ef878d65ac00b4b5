// Command blocks already reads and writes large blocks: it copies IN to
// OUT with Read and Write calls of 128 KiB on the *os.File values (not
// io.Copy, which would ask the kernel to copy) and prints the bytes it
// copied.
//
//	blocks IN OUT
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: blocks IN OUT")
		os.Exit(2)
	}
	in, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "blocks:", err)
		os.Exit(1)
	}
	defer in.Close()
	out, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "blocks:", err)
		os.Exit(1)
	}
	buf := make([]byte, 128<<10)
	var total int64
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if _, err := out.Write(buf[:n]); err != nil {
				fmt.Fprintln(os.Stderr, "blocks:", err)
				os.Exit(1)
			}
			total += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "blocks:", err)
			os.Exit(1)
		}
	}
	if err := out.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "blocks:", err)
		os.Exit(1)
	}
	fmt.Println(total)
}
