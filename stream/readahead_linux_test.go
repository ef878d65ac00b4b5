package stream

import (
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// mapsLine is a line of /proc/PID/maps.
var mapsLine = regexp.MustCompile(`^[0-9a-f]+-[0-9a-f]+ [-r][-w][-x][ps] [0-9a-f]+ [0-9a-f]+:[0-9a-f]+ [0-9]+ *( .*)?$`)

// TestReadaheadProcMaps reads /proc/self/maps, a file the kernel makes
// anew at each read(2), many times while another goroutine maps and
// unmaps memory: every line is whole, as with bufio. Reads made at fixed
// offsets at different times would join pieces of different texts; a
// file in /proc is never read ahead.
func TestReadaheadProcMaps(t *testing.T) {
	aheadCPUs(t)
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var held [][]byte
		for i := 0; ; i++ {
			select {
			case <-stop:
				for _, m := range held {
					syscall.Munmap(m)
				}
				return
			default:
			}
			// Alternate protections, so that neighbours do not merge.
			prot := syscall.PROT_READ
			if i%2 == 1 {
				prot |= syscall.PROT_WRITE
			}
			m, err := syscall.Mmap(-1, 0, 4096*(1+i%5), prot, syscall.MAP_PRIVATE|syscall.MAP_ANON)
			if err != nil {
				continue
			}
			held = append(held, m)
			if len(held) > 64 {
				syscall.Munmap(held[0])
				held = held[1:]
			}
		}
	}()
	defer func() { close(stop); <-stopped }()
	const reads = 1000
	var shown []string
	bad, lines, ahead := 0, 0, 0
	for range reads {
		f, err := os.Open("/proc/self/maps")
		if err != nil {
			t.Fatal(err)
		}
		r := NewReaderPolicy(f, ReadaheadSize(4096))
		for {
			line, err := r.ReadString('\n')
			if err == io.EOF && line == "" {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			lines++
			if !mapsLine.MatchString(strings.TrimSuffix(line, "\n")) {
				if bad++; len(shown) < 5 {
					shown = append(shown, line)
				}
			}
		}
		if r.Info().Ahead > 0 {
			ahead++
		}
		f.Close()
	}
	if bad > 0 || ahead > 0 {
		t.Errorf("%d malformed lines of %d, %d of %d readers read ahead: %q", bad, lines, ahead, reads, shown)
	}
}
