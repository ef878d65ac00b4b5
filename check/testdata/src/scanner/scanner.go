package scanner

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func unchecked() int {
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() { // want `for sc.Scan\(\) loop never checks sc.Err\(\): a read error or a line longer than the Scanner's buffer ends the loop as end of input does; check sc.Err\(\) after the loop`
		n++
	}
	return n
}

func checked() error {
	sc := bufio.NewScanner(strings.NewReader("a\nb"))
	for sc.Scan() {
		fmt.Sprint(sc.Text())
	}
	return sc.Err()
}

func checkedInClosure() func() error {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
	}
	return func() error { return sc.Err() }
}

func param(sc *bufio.Scanner) (n int) {
	for sc.Scan() { // the caller may check Err
		n++
	}
	return n
}

func escapes() *bufio.Scanner {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
	}
	return sc
}
