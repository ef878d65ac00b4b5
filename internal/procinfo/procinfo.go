// Package procinfo reads what the benchmark tools record about the
// machine from Linux's /proc: a "key: value" field (the CPU model, the
// memory) and the load average.
package procinfo

import (
	"bufio"
	"os"
	"strings"
)

// Field returns the value of the first "key: value" line of the file at
// path whose key is key, trimmed, and false if the file cannot be read or
// has no such line.
func Field(path, key string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// LoadAverage returns the fields of /proc/loadavg (the 1, 5 and 15
// minute figures first, as written there), or nil if it cannot be read.
func LoadAverage() []string {
	return loadAverage("/proc/loadavg")
}

func loadAverage(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}
