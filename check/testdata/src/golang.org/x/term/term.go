// Package term stands for golang.org/x/term.
package term

type State struct{}

// MakeRaw puts the terminal fd in raw mode.
func MakeRaw(fd int) (*State, error) { return &State{}, nil }
