package events

import (
	"fmt"
	"os"
)

var _ = []any{checkAll, collectAll}

// A consistency check's first errors, at most 11: the list is bounded by
// the break, whatever the count of errors.
func checkAll(check func(yield func(error) bool)) {
	var errs []error
	for err := range check {
		errs = append(errs, err)
		if len(errs) > 10 {
			break
		}
	}
	if len(errs) > 0 {
		fmt.Printf("check failed (%d errors)\n", len(errs))
		for _, err := range errs {
			fmt.Println(err)
		}
		os.Exit(1)
	}
}

// Every error, with no bound: per error, as many as the input has.
func collectAll(check func(yield func(error) bool)) {
	var errs []error
	for err := range check {
		errs = append(errs, err)
		if len(errs) > 1000 {
			break
		}
	}
	for _, err := range errs {
		fmt.Println(err) // want `^fmt.Println in a loop writes to os.Stdout unbuffered`
	}
}
