package silent

import (
	"fmt"
	"testing"
)

// A test's output is not the program's: not reported.
func TestLoop(t *testing.T) {
	for _, s := range []string{} {
		fmt.Println(s)
	}
	for i := range t.Name() {
		fmt.Println(i)
	}
}

func ExamplePrint() {
	for i := range len("ab") {
		fmt.Println(i)
	}
	// Output:
	// 0
	// 1
}
