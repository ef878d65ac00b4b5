// Command println is golang/go#3463's program: fmt.Println(i) for every i
// below N (default 1<<24), or with -printf a fmt.Printf("%d %s\n") loop.
// bench/stdout.sh builds it plainly and with `stdiobuf build -stdout` and
// times it against the same loops in C (bench/c/println.c).
package main

import (
	"flag"
	"fmt"
)

func main() {
	n := flag.Int("n", 1<<24, "how many lines")
	printf := flag.Bool("printf", false, `print "%d %s\n" lines instead of Println(i)`)
	flag.Parse()
	words := [...]string{"alpha", "beta", "gamma", "delta"}
	if *printf {
		for i := range *n {
			fmt.Printf("%d %s\n", i, words[i%len(words)])
		}
		return
	}
	for i := range *n {
		fmt.Println(i)
	}
}
