package flush

import (
	"bufio"
	"fmt"
	"os"
)

func report(xs []int) {
	out := bufio.NewWriter(os.Stdout)
	for _, x := range xs {
		if x < 0 {
			return // want `out, a bufio.Writer written to after line 10, reaches this return without Flush: what it holds is lost; call out.Flush\(\) on every path \(suggested fix: defer out.Flush\(\)\)`
		}
		fmt.Fprintln(out, x)
	}
	out.Flush()
}
