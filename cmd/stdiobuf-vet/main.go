// Command stdiobuf-vet is package check's analyzer as a vet tool:
//
//	go build -o stdiobuf-vet github.com/stdiobuf/stdiobuf/cmd/stdiobuf-vet
//	go vet -vettool=$PWD/stdiobuf-vet ./...
//
// It reports where a program pays one system call per record on an
// *os.File, bufio.Writers left without Flush and Scanner loops that never
// check Err (go doc github.com/stdiobuf/stdiobuf/check). `stdiobuf check`
// runs the same analyzer without a separate binary.
package main

import (
	"github.com/stdiobuf/stdiobuf/check"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() {
	unitchecker.Main(check.Analyzer)
}
