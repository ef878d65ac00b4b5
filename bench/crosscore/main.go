//go:build linux

// Command crosscore measures what read-ahead cannot hide: the bytes of a
// buffer filled on one core are read by the caller on another. It fills
// 128 KiB buffers (a memcpy, as read(2) from the page cache does) and
// counts their newlines (bytes.Count, as getdelim -n's scan does):
//
//	local:  fill and count on one CPU;
//	count:  count a buffer already in this CPU's cache;
//	remote: another CPU fills, this one counts (read-ahead's hand-over).
//
// The difference between remote and count is the price per buffer of
// moving it from one core's cache to the other's, which a Reader that
// reads ahead pays on every buffer: it bounds what read-ahead can win,
// at most (the read's time) - (that price) per buffer. Threads are pinned
// with sched_setaffinity to CPUs 0 and 1; each figure is the median of 9
// rounds of 2000 buffers, per buffer.
package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

const (
	size    = 128 << 10
	buffers = 2000
	rounds  = 9
	ring    = 4 // buffers in flight, as read-ahead's ring
)

// pin locks the goroutine to its thread and the thread to cpu.
func pin(cpu int) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	return unix.SchedSetaffinity(0, &set)
}

func main() {
	if runtime.NumCPU() < 2 {
		fmt.Fprintln(os.Stderr, "crosscore: needs 2 CPUs, this machine lets the program use", runtime.NumCPU())
		os.Exit(1)
	}
	m, err := measure(buffers, rounds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crosscore:", err)
		os.Exit(1)
	}
	fmt.Printf("per %d KiB buffer: fill+count on one CPU %v; count alone %v; count of a buffer another CPU filled %v: moving it costs %v\n",
		size>>10, m.local, m.count, m.remote, m.remote-m.count)
}

// figures are the medians, per buffer, of one measurement.
type figures struct {
	local  time.Duration // fill and count on one CPU
	count  time.Duration // count a buffer already in this CPU's cache
	remote time.Duration // count a buffer another CPU has just filled
}

// measure runs rounds rounds of n buffers each way, on CPUs 0 and 1, and
// returns the median figures. It checks every count against the newlines
// the buffer holds.
func measure(n, rounds int) (figures, error) {
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	line := []byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz 0123456789\n")
	src := bytes.Repeat(line, size/len(line)+1)[:size]
	want := bytes.Count(src, []byte{'\n'})
	bufs := make([][]byte, ring)
	for i := range bufs {
		bufs[i] = make([]byte, size)
	}
	done := make(chan struct {
		f   figures
		err error
	})
	go func() { // pinned: leaves the caller's thread alone
		defer runtime.UnlockOSThread()
		f, err := measurePinned(bufs, src, n, rounds, want)
		done <- struct {
			f   figures
			err error
		}{f, err}
	}()
	r := <-done
	return r.f, r.err
}

func measurePinned(bufs [][]byte, src []byte, n, rounds, want int) (figures, error) {
	if err := pin(0); err != nil {
		return figures{}, fmt.Errorf("sched_setaffinity: %w", err)
	}
	sink := 0
	var local, count, remote []time.Duration
	for range rounds {
		t0 := time.Now()
		for i := range n {
			b := bufs[i%ring]
			copy(b, src)
			sink += bytes.Count(b, []byte{'\n'})
		}
		local = append(local, time.Since(t0)/time.Duration(n))

		t0 = time.Now()
		for i := range n {
			sink += bytes.Count(bufs[i%ring], []byte{'\n'})
		}
		count = append(count, time.Since(t0)/time.Duration(n))

		d, err := remoteRound(bufs, src, n, &sink)
		if err != nil {
			return figures{}, fmt.Errorf("sched_setaffinity: %w", err)
		}
		remote = append(remote, d)
	}
	if sink != 3*n*rounds*want {
		return figures{}, fmt.Errorf("counted %d newlines, want %d", sink, 3*n*rounds*want)
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	return figures{med(local), med(count), med(remote)}, nil
}

// remoteRound has a goroutine on CPU 1 fill the buffers of the ring in
// turn while this one counts each as soon as it is full, and returns the
// median time of a count.
func remoteRound(bufs [][]byte, src []byte, n int, sink *int) (time.Duration, error) {
	var filled, counted atomic.Int64
	errc := make(chan error, 1)
	go func() {
		if err := pin(1); err != nil {
			errc <- err
			filled.Store(int64(n))
			return
		}
		defer runtime.UnlockOSThread()
		errc <- nil
		for i := range int64(n) {
			for i-counted.Load() >= ring {
			}
			copy(bufs[i%ring], src)
			filled.Store(i + 1)
		}
	}()
	if err := <-errc; err != nil {
		return 0, err
	}
	times := make([]time.Duration, 0, n)
	for i := range int64(n) {
		for filled.Load() <= i {
		}
		t0 := time.Now()
		*sink += bytes.Count(bufs[i%ring], []byte{'\n'})
		times = append(times, time.Since(t0))
		counted.Store(i + 1)
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}
