// Command emptytokens runs a bufio.Scanner whose split function returns
// empty tokens without advancing at the end of its input, which bufio's
// Scan stops with a panic.
package main

import (
	"bufio"
	"strings"
)

func main() {
	sc := bufio.NewScanner(strings.NewReader(""))
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) { return 0, []byte{}, nil })
	for sc.Scan() {
	}
}
