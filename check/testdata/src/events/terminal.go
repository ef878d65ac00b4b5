package events

import (
	"bufio"
	"fmt"
	"os"

	"github.com/chzyer/readline"
	"github.com/peterh/liner"
	"golang.org/x/term"
)

var _ = []any{repl, starREPL, keys, lines, fileKeys, historyOrRun}

type editor struct {
	*liner.State
	prompt string
}

// A REPL: each iteration prints the prompt and reads a line typed at the
// terminal (through a method the type embeds from liner), then answers
// it. Per event.
func repl(ed *editor) {
	for {
		line, err := ed.Prompt(ed.prompt)
		if err != nil {
			break
		}
		fmt.Println("=", line)
	}
}

// A REPL whose step is given the line editor.
func starREPL() {
	rl, _ := readline.New(">>> ")
	for {
		if err := step(rl); err != nil {
			break
		}
	}
}

func step(rl *readline.Instance) error {
	line, err := rl.Readline()
	if err != nil {
		return err
	}
	fmt.Println(line)
	return nil
}

// Key presses: the package makes the terminal raw (term.MakeRaw below),
// and the loop reads standard input a byte at a time.
var stdin = os.Stdin

func keys() {
	term.MakeRaw(0)
	in := bufio.NewReader(stdin)
	for {
		c, err := in.ReadByte()
		if err != nil {
			return
		}
		if c == '\n' {
			fmt.Println()
		}
	}
}

// A loop over lines of a file, in the same package: per record.
func fileKeys(f *os.File) {
	in := bufio.NewReader(f)
	for {
		s, err := in.ReadString('\n')
		if err != nil {
			return
		}
		fmt.Print(s) // want `^fmt.Print in a loop writes to os.Stdout unbuffered`
	}
}

// A line editor called only in another branch: the listing of the
// records is per record.
func historyOrRun(ed *editor, items []string, interactive bool) {
	for _, it := range items {
		if interactive {
			ed.AppendHistory(it)
		} else {
			fmt.Println(it) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
	}
}

// lines reads os.Stdin as records, not keys, though the package makes the
// terminal raw elsewhere: a Scanner's Scan is not a read of a key.
func lines() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Println(sc.Text()) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
	if sc.Err() != nil {
		return
	}
}
