package main

import (
	"io"
	"os"
	"os/exec"
	"slices"

	"github.com/stdiobuf/stdiobuf/check"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// vetToolEnv, set to 1 in go vet's environment by runCheck, makes this
// program go vet's tool: package check's analyzer, run by unitchecker.
const vetToolEnv = "STDIOBUF_VETTOOL"

// vetTool runs package check's analyzer as go vet's tool and exits, if
// go vet started this program for stdiobuf check; otherwise it returns.
func vetTool() {
	if os.Getenv(vetToolEnv) == "1" {
		unitchecker.Main(check.Analyzer) // exits
	}
}

// runCheck carries out `stdiobuf check [flags] [packages]`: go vet with
// this program as its vet tool, so go vet's flags (-fix, -diff, -json,
// -tags), package patterns, build cache and exit status are go vet's.
func runCheck(args []string, stdout, stderr io.Writer) error {
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		return help(stdout, []string{"check"})
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	// go vet's -C must be its first flag, before -vettool.
	vet, dir := []string{"vet"}, ""
	if d, ok, usedNext, err := chdirFlag(next(args, -1), next(args, 0), len(args) > 1); ok {
		if err != nil {
			return &exitError{msg: err.Error(), code: 2}
		}
		dir = d
		vet = append(vet, "-C", dir)
		args = args[1:]
		if usedNext {
			args = args[1:]
		}
	}
	g, err := findGo(dir)
	if err != nil {
		return err
	}
	cmd := exec.Command(g.path, append(append(vet, "-vettool="+self), args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = append(append(os.Environ(), g.env...), vetToolEnv+"=1")
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return &exitError{code: exitCode(err)}
		}
		return err
	}
	return nil
}
