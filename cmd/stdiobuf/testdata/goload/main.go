// Command goload loads the packages named by its arguments with
// golang.org/x/tools/go/packages, from source with all their dependencies,
// as gopls, staticcheck and go/analysis tests do, and prints every error.
// It exits 1 if there was one. The test copies it into a module of its own
// (it is not part of stdiobuf's) and runs it with the overlay in GOFLAGS.
package main

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/packages"
)

func main() {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	loaded := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) { loaded++ })
	if packages.PrintErrors(pkgs) > 0 {
		os.Exit(1)
	}
	fmt.Printf("%d packages loaded\n", loaded)
}
