// Package liner stands for github.com/peterh/liner: a line editor that
// prints its prompt and reads a line typed at the terminal.
package liner

import "fmt"

type State struct{ history []string }

func NewLiner() *State { return &State{} }

// Prompt prints the prompt and reads a line.
func (s *State) Prompt(p string) (string, error) {
	fmt.Print(p)
	return "", nil
}

func (s *State) AppendHistory(item string) { s.history = append(s.history, item) }
