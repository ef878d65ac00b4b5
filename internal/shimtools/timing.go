package shimtools

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Timing is one run's wall-clock time and the CPU time its process used.
type Timing struct {
	Wall, User, Sys time.Duration
}

// Time runs r once and measures it. The wall time runs from the start of
// the process to the end of Wait, which for a non-file Stdout includes
// draining the pipe it writes into.
func (r Run) Time(ctx context.Context) (Timing, error) {
	argv := append([]string{r.Bin}, r.Args...)
	cmd, done, err := r.cmd(ctx, argv)
	if err != nil {
		return Timing{}, err
	}
	defer done()
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Timing{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, lastLines(fmt.Sprint(cmd.Stderr), 5))
	}
	return Timing{Wall: wall, User: cmd.ProcessState.UserTime(), Sys: cmd.ProcessState.SystemTime()}, nil
}
