// Command bufiofiles already buffers: it reads the integers of IN, one a
// line, with a bufio.Scanner, writes each doubled to OUT through a
// bufio.Writer, and prints how many it read and their sum.
//
//	bufiofiles IN OUT
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bufiofiles IN OUT")
		os.Exit(2)
	}
	in, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bufiofiles:", err)
		os.Exit(1)
	}
	defer in.Close()
	out, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bufiofiles:", err)
		os.Exit(1)
	}
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	var count, sum int64
	for sc.Scan() {
		x, err := strconv.ParseInt(sc.Text(), 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bufiofiles: %s: line %d: %v\n", os.Args[1], count+1, err)
			os.Exit(1)
		}
		count++
		sum += x
		fmt.Fprintf(w, "%d\n", 2*x)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "bufiofiles:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "bufiofiles:", err)
		os.Exit(1)
	}
	if err := out.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "bufiofiles:", err)
		os.Exit(1)
	}
	fmt.Println(count, sum)
}
