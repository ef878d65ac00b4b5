// Command heldin is a program of the kind stdiobuf exists for: it knows
// only `import "bufio"`. The tests build it with go build and with
// stdiobuf build and compare what its streams do.
//
//	heldin size FILE|-   print the Size of a bufio.Reader over FILE or stdin
//	heldin lines N       write N lines through a bufio.Writer on stdout
//	heldin copy          copy stdin's lines to stdout, Scanner to Writer
package main

import (
	"bufio"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: heldin size FILE|- | lines N | copy")
	}
	switch os.Args[1] {
	case "size":
		f := os.Stdin
		if len(os.Args) > 2 && os.Args[2] != "-" {
			var err error
			if f, err = os.Open(os.Args[2]); err != nil {
				fail(err.Error())
			}
		}
		r := bufio.NewReader(f)
		if _, err := r.Peek(1); err != nil {
			fail("peek: " + err.Error())
		}
		os.Stdout.WriteString(strconv.Itoa(r.Size()) + "\n")
	case "lines":
		n, err := strconv.Atoi(os.Args[2])
		if err != nil {
			fail(err.Error())
		}
		w := bufio.NewWriter(os.Stdout)
		for i := range n {
			w.WriteString("line " + strconv.Itoa(i) + "\n")
		}
		if err := w.Flush(); err != nil {
			fail(err.Error())
		}
	case "copy":
		s := bufio.NewScanner(os.Stdin)
		w := bufio.NewWriter(os.Stdout)
		for s.Scan() {
			w.Write(s.Bytes())
			w.WriteByte('\n')
		}
		if err := s.Err(); err != nil {
			fail(err.Error())
		}
		if err := w.Flush(); err != nil {
			fail(err.Error())
		}
	default:
		fail("unknown command " + os.Args[1])
	}
}

func fail(msg string) {
	os.Stderr.WriteString("heldin: " + msg + "\n")
	os.Exit(1)
}
