package procinfo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestField(t *testing.T) {
	name := filepath.Join(t.TempDir(), "cpuinfo")
	if err := os.WriteFile(name, []byte("processor\t: 0\nmodel name\t: Some CPU @ 2GHz \nmodel name\t: second\nflags\t\t: a b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, key string
		want      string
		ok        bool
	}{
		{name, "model name", "Some CPU @ 2GHz", true},
		{name, "processor", "0", true},
		{name, "MemTotal", "", false},
		{filepath.Join(t.TempDir(), "none"), "model name", "", false},
	}
	for _, tt := range tests {
		got, ok := Field(tt.path, tt.key)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Field(%s, %q) = %q, %v; want %q, %v", filepath.Base(tt.path), tt.key, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLoadAverage(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		name := filepath.Join(dir, "loadavg")
		if err := os.WriteFile(name, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return name
	}
	got := loadAverage(write("0.52 1.10 1.71 2/90 1234\n"))
	if diff := cmp.Diff([]string{"0.52", "1.10", "1.71", "2/90", "1234"}, got); diff != "" {
		t.Errorf("loadAverage (-want +got):\n%s", diff)
	}
	if got := loadAverage(filepath.Join(dir, "none")); got != nil {
		t.Errorf("loadAverage of no file = %q, want nil", got)
	}
}
