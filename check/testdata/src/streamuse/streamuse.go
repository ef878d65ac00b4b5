package streamuse

import (
	"os"

	bufio "github.com/stdiobuf/stdiobuf/stream"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() { // want `for sc.Scan\(\) loop never checks sc.Err\(\)`
		w.WriteString("x")
	}
} // want `w, a bufio.Writer written to after line 10, reaches the end of the function without Flush`
