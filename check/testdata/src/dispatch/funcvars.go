// Package dispatch calls writers through func variables and interface
// methods: each call in a loop is reported where every function it may
// call is known, with the function that writes.
package dispatch

import (
	"fmt"
	"iplib"
	"os"
)

func printString(id int) {
	fmt.Println(id)
}

func printRaw(id int) {
	os.Stdout.Write([]byte{byte(id)})
}

func printNothing(id int) {}

// A local func variable set to one of several functions by a switch.
func printAll(format string, ids []int) {
	var print func(int)
	switch format {
	case "string":
		print = printString
	case "raw":
		print = printRaw
	default:
		print = printNothing
	}
	for _, id := range ids {
		print(id) // want `^per-record write to os.Stdout via printString\(\): fmt.Println \(funcvars.go:13\) makes one system call per record \(as do .*File.Write \(funcvars.go:17\).*\); .*-stdout$`
	}
}

// A func variable called once, and one set only to a function that
// writes nothing.
func printOnce(ids []int) {
	print := printString
	print(len(ids))
	quiet := printNothing
	for _, id := range ids {
		quiet(id)
	}
}

func printRow(r iplib.Row) {
	fmt.Println(r.Name)
}

// A function passed by name to a callee that calls it per record.
func eachRow(rows []iplib.Row) {
	iplib.Each(rows, printRow) // want `^per-record write to os.Stdout via iplib.Each\(fn\) -> printRow\(\): fmt.Println \(funcvars.go:50\) .*-stdout$`
}
