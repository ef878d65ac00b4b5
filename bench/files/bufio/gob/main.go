// Command gob is plain/gob with a bufio.Writer added by hand between
// the encoder and the file.
//
//	gob N PATH
package main

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"os"
	"strconv"
)

// Record is what each Encode call writes.
type Record struct {
	ID    int
	Name  string
	Value float64
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gob N PATH")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 0 {
		fmt.Fprintf(os.Stderr, "gob: bad record count %q\n", os.Args[1])
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gob:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	enc := gob.NewEncoder(w)
	for i := range n {
		if err := enc.Encode(Record{ID: i, Name: "item", Value: float64(i) + 0.5}); err != nil {
			fmt.Fprintln(os.Stderr, "gob:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gob:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "gob:", err)
		os.Exit(1)
	}
}
