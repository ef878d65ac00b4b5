// Command binread is plain/binread with a bufio.Reader added by hand
// between the file and binary.Read.
//
//	binread PATH
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// record is one 16-byte record of the file.
type record struct {
	A, B int64
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: binread PATH")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "binread:", err)
		os.Exit(1)
	}
	defer f.Close()
	in := bufio.NewReader(f)
	var count, sumA, sumB int64
	for {
		var r record
		err := binary.Read(in, binary.LittleEndian, &r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "binread: %s: record %d: %v\n", os.Args[1], count+1, err)
			os.Exit(1)
		}
		count++
		sumA += r.A
		sumB += r.B
	}
	fmt.Println(count, sumA, sumB)
}
