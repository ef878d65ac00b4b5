// Command gob writes N records to PATH with a gob.Encoder over the
// *os.File os.Create returns, one Encode call per record.
//
//	gob N PATH
package main

import (
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
	enc := gob.NewEncoder(f)
	for i := range n {
		if err := enc.Encode(Record{ID: i, Name: "item", Value: float64(i) + 0.5}); err != nil {
			fmt.Fprintln(os.Stderr, "gob:", err)
			os.Exit(1)
		}
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "gob:", err)
		os.Exit(1)
	}
}
