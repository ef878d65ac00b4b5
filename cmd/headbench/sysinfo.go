//go:build linux

package main

import (
	"context"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/procinfo"
	"golang.org/x/sys/unix"
)

// machine describes where the figures were taken.
type machine struct {
	CPUs      int    `json:"nproc"`
	CPUModel  string `json:"cpu_model"`
	MemBytes  int64  `json:"memory_bytes"`
	Kernel    string `json:"kernel"`
	Arch      string `json:"arch"`
	Go        string `json:"go"`
	Libc      string `json:"libc,omitempty"`
	Coreutils string `json:"coreutils,omitempty"`
	// LoadBefore and LoadAfter are /proc/loadavg's 1-minute figure when the
	// run started and ended: above the CPU count others were busy too, and
	// the run warns that the figures are noisy.
	LoadBefore float64 `json:"load_before"`
	LoadAfter  float64 `json:"load_after"`
}

// describeMachine gathers what it can; a fact it cannot find stays empty.
func describeMachine(ctx context.Context) machine {
	m := machine{
		CPUs:       runtime.NumCPU(),
		Arch:       runtime.GOARCH,
		Go:         runtime.Version(),
		CPUModel:   procField("/proc/cpuinfo", "model name"),
		LoadBefore: loadAverage(),
	}
	if kb, err := strconv.ParseInt(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 10, 64); err == nil {
		m.MemBytes = kb << 10
	}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		m.Kernel = unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
	}
	m.Libc = firstLine(ctx, "getconf", "GNU_LIBC_VERSION")
	if v := firstLine(ctx, "head", "--version"); strings.Contains(v, "GNU coreutils") {
		m.Coreutils = v
	}
	return m
}

// procField returns the value of the first "key: value" line of a /proc
// file whose key is key, or "".
func procField(path, key string) string {
	v, _ := procinfo.Field(path, key)
	return v
}

// loadAverage returns the 1-minute load average, or -1 if unknown.
func loadAverage() float64 {
	load := procinfo.LoadAverage()
	if len(load) == 0 {
		return -1
	}
	x, err := strconv.ParseFloat(load[0], 64)
	if err != nil {
		return -1
	}
	return x
}

// firstLine runs a command and returns the first line of its output, or ""
// if it fails.
func firstLine(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
