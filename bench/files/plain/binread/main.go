// Command binread reads 16-byte records (two little-endian int64s) from
// PATH with binary.Read, one call per record, until the end of the file,
// and prints how many it read and the sums of their two fields.
//
//	binread PATH
package main

import (
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
	var count, sumA, sumB int64
	for {
		var r record
		err := binary.Read(f, binary.LittleEndian, &r)
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
