package writes

import (
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
)

type item struct {
	Name string
	N    int
}

func fprintf(f *os.File, items []item) {
	for _, it := range items {
		fmt.Fprintf(f, "%s\t%d\n", it.Name, it.N) // want `fmt.Fprintf in a loop writes to f unbuffered: one system call per record; wrap it in a bufio.Writer flushed after the loop \(suggested fix\), or build with stdiobuf build -files`
	}
}

func println(lines chan string) {
	for line := range lines {
		fmt.Println(line) // want `fmt.Println in a loop writes to os.Stdout unbuffered: one system call per record; write through a bufio.Writer flushed on every path, or build with stdiobuf build -stdout`
	}
}

func stderr(lines []string) error {
	for _, line := range lines {
		fmt.Fprintln(os.Stderr, line) // standard error is never buffered: not reported
		if line == "" {
			return nil
		}
	}
	return nil
}

func fileMethods(f *os.File, recs [][]byte) {
	for _, r := range recs {
		f.Write(r)            // want `File.Write in a loop writes to f unbuffered`
		f.WriteString("\n")   // want `File.WriteString in a loop writes to f unbuffered`
		io.WriteString(f, "") // want `io.WriteString in a loop writes to f unbuffered`
		show(r)
	}
}

func show([]byte) {}

// provable: out is an interface every assignment of which is an *os.File.
func provable(verbose bool, xs []int) {
	var out io.Writer = os.Stdout
	if verbose {
		out = os.Stderr
	}
	for _, x := range xs {
		fmt.Fprintln(out, x) // want `fmt.Fprintln in a loop writes to out unbuffered`
	}
}

func encoders(f *os.File, xs []int) {
	enc := json.NewEncoder(f)
	g := gob.NewEncoder(os.Stdout)
	for _, x := range xs {
		enc.Encode(x)                        // want `json.Encoder.Encode in a loop writes to f unbuffered`
		g.Encode(x)                          // want `gob.Encoder.Encode in a loop writes to os.Stdout unbuffered`
		json.NewEncoder(os.Stderr).Encode(x) // standard error: not reported
	}
}

var logger = log.New(os.Stderr, "", 0)

func logs(f *os.File, xs []int) {
	l := log.New(f, "x: ", 0)
	for _, x := range xs {
		l.Println(x)           // want `log.Logger.Println in a loop writes to f unbuffered`
		logger.Printf("%d", x) // standard error: not reported
		log.Println(x)         // the standard logger's output is not set here
	}
}

func forCond(f *os.File, n int) {
	for i := 0; i < n; i++ {
		fmt.Fprint(f, i) // want `fmt.Fprint in a loop writes to f unbuffered.*suggested fix`
	}
}

func nested(f *os.File, rows [][]int) {
	for _, row := range rows {
		for i := 0; i < 3; i++ {
			fmt.Fprint(f, row[i]) // want `fmt.Fprint in a loop writes to f unbuffered`
		}
		helper()
	}
}

func helper() {}

func bigConstant(f *os.File) {
	for i := 0; i < 1000; i++ {
		fmt.Fprintln(f, i) // want `fmt.Fprintln in a loop writes to f unbuffered.*suggested fix`
	}
}

// A break in a switch leaves the switch, not the loop.
func switchBreak(xs []int) {
	for _, x := range xs {
		switch {
		case x > 0:
			fmt.Println(x) // want `fmt.Println in a loop writes to os.Stdout unbuffered`
			break
		}
	}
}
