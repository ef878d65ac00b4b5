package logout

import (
	"log"
	"os"
)

func init() {
	f, err := os.Create("log")
	if err != nil {
		log.Fatal(err)
	}
	log.SetOutput(f)
}

func run(xs []int) {
	for _, x := range xs {
		log.Printf("x=%d", x) // want `log.Printf in a loop writes to the \*os.File of log.SetOutput unbuffered`
	}
}
