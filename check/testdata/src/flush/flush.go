package flush

import (
	"bufio"
	"errors"
	"fmt"
	"os"
)

func early(f *os.File, xs []int) error {
	w := bufio.NewWriter(f)
	for _, x := range xs {
		if x < 0 {
			return nil // want `w, a bufio.Writer written to after line 11, reaches this return without Flush: what it holds is lost; call w.Flush\(\) on every path`
		}
		fmt.Fprintln(w, x)
	}
	return w.Flush()
}

// failed returns an error: output cut short by it is expected.
func failed(f *os.File, xs []int) error {
	w := bufio.NewWriter(f)
	for _, x := range xs {
		if _, err := fmt.Fprintln(w, x); err != nil {
			return err
		}
		if x < 0 {
			return errors.New("negative")
		}
	}
	return w.Flush()
}

func neverFlushed(f *os.File) {
	w := bufio.NewWriterSize(f, 1<<16)
	w.WriteString("x")
} // want `w, a bufio.Writer written to after line 36, reaches the end of the function without Flush`

func exits(xs []int) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, x := range xs {
		fmt.Fprintln(w, x)
		if x == 0 {
			os.Exit(1) // want `w, a bufio.Writer written to after line 41, reaches os.Exit without Flush \(deferred calls do not run\)`
		}
	}
}

func exitBeforeWrite(args []string) {
	w := bufio.NewWriter(os.Stdout)
	if len(args) == 0 {
		os.Exit(2) // nothing written yet
	}
	fmt.Fprintln(w, args)
	w.Flush()
}

func panics(f *os.File) {
	w := bufio.NewWriter(f)
	w.WriteByte('x')
	panic("no")
}

func flushedEverywhere(f *os.File, xs []int) error {
	w := bufio.NewWriter(f)
	for _, x := range xs {
		if x < 0 {
			w.Flush()
			return errors.New("negative")
		}
		fmt.Fprint(w, x)
	}
	return w.Flush()
}

func deferredLiteral(f *os.File) {
	w := bufio.NewWriter(f)
	defer func() {
		if err := w.Flush(); err != nil {
			panic(err)
		}
	}()
	w.WriteString("x")
}

// Escapes: another function may flush it.
func returned(f *os.File) *bufio.Writer {
	w := bufio.NewWriter(f)
	w.WriteString("x")
	return w
}

func passed(f *os.File) {
	w := bufio.NewWriter(f)
	w.WriteString("x")
	finish(w)
}

func finish(w *bufio.Writer) { w.Flush() }

type sink struct{ w *bufio.Writer }

func stored(f *os.File) *sink {
	w := bufio.NewWriter(f)
	w.WriteString("x")
	return &sink{w}
}

func closure(f *os.File) func() {
	w := bufio.NewWriter(f)
	w.WriteString("x")
	return func() { w.WriteString("y") }
}
