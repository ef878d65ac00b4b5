package writes

import (
	"fmt"
	"os"
	"strings"
)

func table(rows map[string]int) {
	for k, v := range rows {
		fmt.Printf("%s\t%d\n", strings.ToUpper(k), v) // want `fmt.Printf in a loop writes to os.Stdout unbuffered.*suggested fix`
		fmt.Println()                                 // want `fmt.Println in a loop writes to os.Stdout`
	}
	fmt.Println("done")
}

func dump(out *os.File, lines []string) {
	n := 0
	for _, l := range lines {
		if l == "" {
			continue
		}
		out.WriteString(l) // want `File.WriteString in a loop writes to out unbuffered.*suggested fix`
		fmt.Fprintln(out)  // want `fmt.Fprintln in a loop writes to out unbuffered.*suggested fix`
		n++
	}
	fmt.Fprintln(out, n)
}

func twoLoops(f *os.File, a, b []string) {
	for _, s := range a {
		f.WriteString(s) // want `File.WriteString in a loop writes to f unbuffered.*suggested fix`
	}
	for _, s := range b {
		f.WriteString(s) // want `File.WriteString in a loop writes to f unbuffered.*suggested fix`
	}
}
