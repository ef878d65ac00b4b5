// Package events has loops whose iterations are events rather than
// records: a select over several channels, and a process started per
// iteration. Their writes are not reported; a loop over a channel of
// records, and one that only makes a command without running it, are.
package events

import (
	"context"
	"fmt"
	"os/exec"
	"time"
)

type event struct{ name string }

// A watcher's loop: whichever of key presses, file events and the timer
// comes first.
func watch(ctx context.Context, keys <-chan rune, files <-chan event, timer *time.Timer) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
			return fmt.Errorf("idle")
		case k := <-keys:
			fmt.Println("key", k)
		case ev := <-files:
			fmt.Println("changed", ev.name)
		}
	}
}

// A worker's loop over one channel of records, stopped by a context:
// per record.
func work(ctx context.Context, jobs <-chan string) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-jobs:
			fmt.Println(j) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
	}
}

// A range over a channel: per record.
func drain(lines <-chan string) {
	for l := range lines {
		fmt.Println(l) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}

func runTest(name string) error {
	return exec.Command("go", "test", "-run", name).Run()
}

func testFile(name string) error {
	return runTest(name)
}

// A process per iteration, directly and through the package's functions.
func testAll(names []string) {
	for _, n := range names {
		fmt.Println("testing", n)
		out, _ := exec.Command("go", "test", n).CombinedOutput()
		fmt.Printf("%s\n", out)
	}
	for _, n := range names {
		fmt.Println("testing", n)
		testFile(n)
	}
}

// A command made but not run per iteration: per record.
func commands(names []string) []*exec.Cmd {
	var cmds []*exec.Cmd
	for _, n := range names {
		fmt.Println("queued", n) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		cmds = append(cmds, exec.Command("go", "test", n))
	}
	return cmds
}

func diff(name string) ([]byte, error) {
	return exec.Command("diff", "-u", name, name+".orig").CombinedOutput()
}

func processFile(name string, list, showDiff bool) {
	if list {
		fmt.Println(name)
	}
	if showDiff {
		out, _ := diff(name)
		fmt.Printf("%s", out)
	}
}

// A process started only in another branch (a diff under -d): the
// branch that lists a file per iteration is per record, the one that
// runs a process is not.
func processAll(names []string, list, showDiff bool) {
	for _, n := range names {
		processFile(n, list, showDiff) // want `^per-record write to os.Stdout via processFile\(\): fmt.Println \(events.go:90\) .*-stdout$`
	}
	for _, n := range names {
		if showDiff {
			diff(n)
			fmt.Println("diffed", n)
		} else {
			fmt.Println(n) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
		}
	}
}
