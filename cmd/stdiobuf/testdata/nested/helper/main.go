// Command helper prints the Size of a bufio.Reader over standard input
// once it has read: 4096 under bufio, the size _STDBUF_I asks for under
// stream.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	r.Peek(1)
	fmt.Println(r.Size())
}
