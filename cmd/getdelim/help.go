package main

import (
	"fmt"
	"io"
)

// version is what --version prints after the program name.
const version = "(stdiobuf) 0.1"

// writeHelp writes --help's text.
func writeHelp(w io.Writer, prog string) {
	fmt.Fprintf(w, `Usage: %[1]s [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output, as GNU head
does, through package stream's buffers: lines are copied not one at a
time but in whole runs, one write for all the lines the input buffer
holds, and bytes (-c) through the kernel (sendfile, splice or
copy_file_range) where both ends allow it.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
  -d BYTE                  line delimiter is BYTE (one byte, an escape such
                             as \t or \0, or '' for NUL)
      --loop               copy as C's classic loop does: one getdelim and
                             one fwrite per line (with -c: one read and one
                             write per buffer), all through the buffers
      --policy=POLICY      buffer every stream by POLICY: blksize, bufsiz,
                             coreutils, bufio, readahead, cpython, rust,
                             readahead:SIZE, or a size such as 64K
                             (default: $STDIOBUF_POLICY, else blksize)
      --stats[=FORMAT]     report on standard error how each stream was
                             buffered and the read and write calls it made;
                             FORMAT is text (the default, for people) or
                             json (one line, for programs)
      --help               display this help and exit
      --version            output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

Exit status is 0 if every FILE was printed, 1 otherwise.
`, prog)
}

// writeVersion writes --version's text. It names the program by its
// own name whatever argv[0] is, as GNU tools do.
func writeVersion(w io.Writer) {
	fmt.Fprintf(w, "getdelim %s\nA GNU head work-alike on package stream (github.com/stdiobuf/stdiobuf).\n", version)
}
