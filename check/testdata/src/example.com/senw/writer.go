// Package senw writes a value in one call.
package senw

import (
	"fmt"
	"io"
)

// Write writes v to w.
func Write(w io.Writer, v any) { // want Write:`sink\(1 call=false loop=false\)`
	fmt.Fprintln(w, v)
}
