package reads

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

func scan() (sum int) {
	for {
		var n int
		if _, err := fmt.Scan(&n); err != nil { // want `fmt.Scan in a loop reads os.Stdin unbuffered: one system call per record \(per byte: fmt reads one at a time\); scan a bufio.Reader over it, or build with stdiobuf build -files`
			return sum
		}
		sum += n
	}
}

func fscan(f *os.File) {
	var a, b int
	for i := 0; i < 100; i++ {
		fmt.Fscanf(f, "%d %d\n", &a, &b) // want `fmt.Fscanf in a loop reads f unbuffered`
		fmt.Fscanln(os.Stdin, &a)        // want `fmt.Fscanln in a loop reads os.Stdin unbuffered`
	}
}

type header struct{ A, B uint32 }

func binaryRead(f *os.File) {
	var h header
	for binary.Read(f, binary.LittleEndian, &h) == nil { // want `binary.Read in a loop reads f unbuffered: one system call per record; read through a bufio.Reader, or build with stdiobuf build -files`
	}
}

func smallReads(f *os.File) {
	buf := make([]byte, 512)
	var one [1]byte
	var four [4]byte
	big := make([]byte, 1<<16)
	for {
		f.Read(buf)                            // want `File.Read in a loop reads f unbuffered`
		f.Read(one[:])                         // want `File.Read in a loop reads f unbuffered`
		f.Read(big[:1])                        // want `File.Read in a loop reads f unbuffered`
		io.ReadFull(f, four[:])                // want `io.ReadFull in a loop reads f unbuffered`
		if _, err := f.Read(big); err != nil { // 64 KiB at a time: buffered enough
			return
		}
	}
}
