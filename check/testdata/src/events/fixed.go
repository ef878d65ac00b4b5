package events

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"testing"
)

var _ = []any{inspect, benchmarks, printArgs, printLines, readSuite, suiteOf, copies, growing}

// A function of a script language that prints its arguments: a loop
// over one call's arguments, however large the input.
func inspect(args ...any) any {
	for _, a := range args {
		fmt.Println(a)
	}
	return nil
}

type bench struct {
	name string
	fn   func(*testing.B)
}

// A fixed suite of benchmarks: every call gives a composite literal, and
// the sorted copy is made as long as the suite.
func suite(title string, benches []*bench) {
	fmt.Println(title)
	for _, b := range benches {
		r := testing.Benchmark(b.fn)
		fmt.Printf("%s %d ns/op\n", b.name, r.NsPerOp())
	}
	sorted := make([]*bench, len(benches))
	copy(sorted, benches)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, b := range sorted {
		fmt.Println(b.name)
	}
}

func benchmarks() {
	suite("parse", []*bench{{"json", nil}, {"oj", nil}})
	list := []*bench{{"write", nil}}
	suite("write", list)
}

// A variadic function given a slice read from input with ...: per
// record, as is a call in the loop of one given the slice's items.
func printArgs(args ...string) {
	for _, a := range args {
		fmt.Println(a) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}

func printLines() {
	var lines []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if sc.Err() != nil {
		return
	}
	printArgs(lines...)
}

// A closed function one of whose calls gives a list read from input:
// per record.
func printSuite(names []string) {
	for _, n := range names {
		fmt.Println(n) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}

func readSuite(names []string) {
	printSuite([]string{"a", "b"})
	printSuite(names)
}

// An exported variadic function another package may give a slice.
func PrintAll(args ...string) {
	for _, a := range args {
		fmt.Println(a) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}

func suiteOf() []string { return []string{"a"} }

// A copy as long as a list read from input, and a literal list grown by
// append: per record.
func copies(names []string) {
	cp := make([]string, len(names))
	copy(cp, names)
	for _, n := range cp {
		fmt.Println(n) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}

func growing(names []string) {
	all := []string{"header"}
	all = append(all, names...)
	for _, n := range all {
		fmt.Println(n) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}
