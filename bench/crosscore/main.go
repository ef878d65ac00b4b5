//go:build linux

// Command crosscore measures what read-ahead cannot hide: the bytes of a
// buffer filled on one core are read by the caller on another, and the
// goroutine that fills them must be woken. It fills 128 KiB buffers (a
// memcpy, as read(2) from the page cache does) and counts their newlines
// (bytes.Count, as getdelim -n's scan does):
//
//	local:  fill and count on one CPU;
//	count:  count a buffer already in this CPU's cache;
//	remote: another CPU fills, this one counts (read-ahead's hand-over);
//	fill:   fill a buffer this CPU last wrote;
//	refill: fill a buffer the other CPU last counted (the filler's side
//	        of the hand-over).
//
// The difference between remote and count is the price per buffer of
// moving it from one core's cache to the other's, which a Reader that
// reads ahead pays on every buffer, and refill - fill is what the filler
// pays: they bound what read-ahead can win, at most (the read's time) -
// (that price) per buffer, and add to its CPU time. Threads are pinned
// with sched_setaffinity to the first two CPUs the process may use; each
// figure is the median of 9 rounds of 2000 buffers, per buffer. Each
// buffer is stamped with its number as it is filled, and each count
// checks the stamp: a count that ran before its buffer was filled is an
// error, not a figure.
//
// Then, unpinned, the CPU time (user+sys of the process, getrusage) that
// one hand-over to a goroutine that has gone idle adds, beyond the
// caller's own work between hand-overs (wakeCost):
//
//	go:    a go statement: a new goroutine, which does nothing and ends
//	       (read-ahead's kick);
//	chan:  a send on a channel to a goroutine parked receiving on it;
//	spin:  a goroutine that waits by yielding (runtime.Gosched) on an
//	       atomic counter, one way a read-ahead goroutine can wait on a
//	       full ring.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
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

	// The hand-overs of wakeCost, and the caller's work between two: about
	// what getdelim --loop does with two 128 KiB buffers (aheadKickFree),
	// time enough for an idle thread to go to sleep.
	wakes    = 2000
	wakeWork = 60 * time.Microsecond
)

// cpus returns the first two CPUs this process may run on.
func cpus() ([2]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return [2]int{}, fmt.Errorf("sched_getaffinity: %w", err)
	}
	var two [2]int
	n := 0
	for cpu := 0; cpu < 1024 && n < 2; cpu++ {
		if set.IsSet(cpu) {
			two[n] = cpu
			n++
		}
	}
	if n < 2 {
		return two, errOneCPU
	}
	return two, nil
}

// errOneCPU says there is only one CPU to run on.
var errOneCPU = errors.New("needs 2 CPUs, and this process may run on 1")

// pin locks the goroutine to its thread and the thread to cpu.
func pin(cpu int) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Set(cpu)
	return unix.SchedSetaffinity(0, &set)
}

func main() {
	m, err := measure(buffers, rounds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crosscore:", err)
		os.Exit(1)
	}
	fmt.Printf("per %d KiB buffer: fill+count on one CPU %v; count alone %v; count of a buffer another CPU filled %v: moving it costs %v; fill %v, refill of a buffer the other CPU counted %v: %v more\n",
		size>>10, m.local, m.count, m.remote, m.remote-m.count, m.fill, m.refill, m.refill-m.fill)
	w, err := wakeCost(wakes, wakeWork)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crosscore:", err)
		os.Exit(1)
	}
	fmt.Printf("per hand-over to an idle goroutine, %v of work apart, CPU time added: go statement %v; channel to a parked goroutine %v; goroutine yielding on an atomic %v\n",
		wakeWork, w.spawn, w.channel, w.spin)
}

// figures are the medians, per buffer, of one measurement.
type figures struct {
	local  time.Duration // fill and count on one CPU
	count  time.Duration // count a buffer already in this CPU's cache
	remote time.Duration // count a buffer another CPU has just filled
	fill   time.Duration // fill a buffer this CPU last wrote
	refill time.Duration // fill a buffer the other CPU last counted
}

// measure runs rounds rounds of n buffers each way, on CPUs 0 and 1, and
// returns the median figures. It checks every count against the newlines
// the buffer holds.
func measure(n, rounds int) (figures, error) {
	two, err := cpus()
	if err != nil {
		return figures{}, err
	}
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	line := []byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz 0123456789\n")
	src := bytes.Repeat(line, size/len(line)+1)[:size]
	want := bytes.Count(src[8:], []byte{'\n'})
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
		f, err := measurePinned(two, bufs, src, n, rounds, want)
		done <- struct {
			f   figures
			err error
		}{f, err}
	}()
	r := <-done
	return r.f, r.err
}

func measurePinned(two [2]int, bufs [][]byte, src []byte, n, rounds, want int) (figures, error) {
	if err := pin(two[0]); err != nil {
		return figures{}, fmt.Errorf("sched_setaffinity: %w", err)
	}
	sink := 0
	var local, count, remote, fills, refills []time.Duration
	for range rounds {
		var last [ring]int // the buffer each of bufs holds
		t0 := time.Now()
		for i := range n {
			b := bufs[i%ring]
			fill(b, src, i)
			sink += countStamped(b, i)
			last[i%ring] = i
		}
		local = append(local, time.Since(t0)/time.Duration(n))

		times := make([]time.Duration, 0, n)
		for i := range n {
			t0 := time.Now()
			c := countStamped(bufs[i%ring], last[i%ring])
			times = append(times, time.Since(t0))
			sink += c
		}
		slices.Sort(times)
		count = append(count, times[len(times)/2])

		times = times[:0]
		for i := range n {
			t0 := time.Now()
			fill(bufs[i%ring], src, last[i%ring])
			times = append(times, time.Since(t0))
		}
		slices.Sort(times)
		fills = append(fills, times[len(times)/2])

		d, r, err := remoteRound(two[1], bufs, src, n, &sink)
		if err != nil {
			return figures{}, err
		}
		remote, refills = append(remote, d), append(refills, r)
	}
	if sink != 3*n*rounds*want {
		return figures{}, fmt.Errorf("counted %d newlines, want %d: a count ran on a buffer not (yet) filled", sink, 3*n*rounds*want)
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	return figures{med(local), med(count), med(remote), med(fills), med(refills)}, nil
}

// remoteRound has a goroutine on CPU 1 fill the buffers of the ring in
// turn while this one counts each as soon as it is full, and returns the
// median time of a count and of a fill.
func remoteRound(cpu int, bufs [][]byte, src []byte, n int, sink *int) (count, refill time.Duration, err error) {
	var filled, counted atomic.Int64
	errc := make(chan error, 1)
	fills := make(chan []time.Duration, 1)
	go func() {
		if err := pin(cpu); err != nil {
			errc <- fmt.Errorf("sched_setaffinity: %w", err)
			filled.Store(int64(n))
			return
		}
		defer runtime.UnlockOSThread()
		errc <- nil
		times := make([]time.Duration, 0, n)
		for i := range int64(n) {
			for i-counted.Load() >= ring {
			}
			t0 := time.Now()
			fill(bufs[i%ring], src, int(i))
			times = append(times, time.Since(t0))
			filled.Store(i + 1)
		}
		fills <- times
	}()
	if err := <-errc; err != nil {
		return 0, 0, err
	}
	times := make([]time.Duration, 0, n)
	for i := range int64(n) {
		for filled.Load() <= i {
		}
		t0 := time.Now()
		c := countStamped(bufs[i%ring], int(i))
		times = append(times, time.Since(t0))
		*sink += c
		counted.Store(i + 1)
	}
	ft := <-fills
	slices.Sort(times)
	slices.Sort(ft)
	return times[len(times)/2], ft[len(ft)/2], nil
}

// fill copies src into b, as a read would, and stamps b with i in its
// first 8 bytes.
func fill(b, src []byte, i int) {
	copy(b, src)
	binary.LittleEndian.PutUint64(b, uint64(i))
}

// countStamped counts b's newlines if b holds buffer i, else returns -1:
// the total then shows that a count ran on the wrong bytes.
func countStamped(b []byte, i int) int {
	if binary.LittleEndian.Uint64(b) != uint64(i) {
		return -1
	}
	return bytes.Count(b[8:], []byte{'\n'}) // past the stamp, whose bytes may be '\n'
}

// wakeFigures are the CPU times one hand-over adds, by way of waking.
type wakeFigures struct {
	spawn, channel, spin time.Duration
}

// wakeCost returns the CPU time of the process that n hand-overs add,
// each after work of busy work, beyond the same work without them, per
// hand-over: the median of rounds rounds of each, interleaved.
func wakeCost(n int, work time.Duration) (wakeFigures, error) {
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2))
	ways := []func(n int, work time.Duration) (time.Duration, error){handNone, handSpawn, handChannel, handSpin}
	got := make([][]time.Duration, len(ways))
	for range rounds {
		for i, way := range ways {
			d, err := way(n, work)
			if err != nil {
				return wakeFigures{}, err
			}
			got[i] = append(got[i], d)
		}
	}
	med := make([]time.Duration, len(ways))
	for i, d := range got {
		slices.Sort(d)
		med[i] = d[len(d)/2]
	}
	per := func(i int) time.Duration { return (med[i] - med[0]) / time.Duration(n) }
	return wakeFigures{spawn: per(1), channel: per(2), spin: per(3)}, nil
}

// cpuTime returns the user and system time of the process so far.
func cpuTime() (time.Duration, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// busy works for d, without a system call.
func busy(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// handNone is the caller's work alone: the baseline.
func handNone(n int, work time.Duration) (time.Duration, error) {
	t0, err := cpuTime()
	if err != nil {
		return 0, err
	}
	for range n {
		busy(work)
	}
	t1, err := cpuTime()
	return t1 - t0, err
}

// handSpawn starts a goroutine at each hand-over.
func handSpawn(n int, work time.Duration) (time.Duration, error) {
	var done atomic.Int64
	t0, err := cpuTime()
	if err != nil {
		return 0, err
	}
	for range n {
		busy(work)
		go func() { done.Add(1) }()
	}
	for done.Load() < int64(n) {
		runtime.Gosched()
	}
	t1, err := cpuTime()
	return t1 - t0, err
}

// handChannel sends each hand-over to a goroutine parked on a channel.
func handChannel(n int, work time.Duration) (time.Duration, error) {
	c := make(chan struct{})
	var done atomic.Int64
	go func() {
		for range c {
			done.Add(1)
		}
	}()
	c <- struct{}{} // it runs, and parks again while the caller works
	t0, err := cpuTime()
	if err != nil {
		return 0, err
	}
	for range n {
		busy(work)
		c <- struct{}{}
	}
	for done.Load() < int64(n)+1 {
		runtime.Gosched()
	}
	t1, err := cpuTime()
	close(c)
	return t1 - t0, err
}

// handSpin hands each over through an atomic counter that a goroutine
// watches, yielding between looks.
func handSpin(n int, work time.Duration) (time.Duration, error) {
	var posted, done atomic.Int64
	started := make(chan struct{})
	go func() {
		close(started)
		for i := int64(1); i <= int64(n); i++ {
			for posted.Load() < i {
				runtime.Gosched()
			}
			done.Add(1)
		}
	}()
	<-started // it runs, on the other CPU while the caller works
	t0, err := cpuTime()
	if err != nil {
		return 0, err
	}
	for i := range int64(n) {
		busy(work)
		posted.Store(i + 1)
	}
	for done.Load() < int64(n) {
		runtime.Gosched()
	}
	t1, err := cpuTime()
	return t1 - t0, err
}
