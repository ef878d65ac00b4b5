package main

import "testing"

func TestProgramName(t *testing.T) {
	tests := []struct{ argv0, want string }{
		{"getdelim", "getdelim"},
		{"./bin/getdelim", "./bin/getdelim"},
		{"/usr/local/bin/getdelim", "/usr/local/bin/getdelim"},
		{"", ""},
		{"a/b/", "a/b/"},
		{"build/.libs/getdelim", "getdelim"},
		{"build/.libs/lt-getdelim", "getdelim"},
		{"/.libs/lt-x", "x"},
		{".libs/lt-x", ".libs/lt-x"}, // no slash before .libs: left alone, as gnulib does
		{"x.libs/lt-x", "x.libs/lt-x"},
		{"lt-getdelim", "lt-getdelim"},
	}
	for _, tt := range tests {
		if got := programName(tt.argv0); got != tt.want {
			t.Errorf("programName(%q) = %q, want %q", tt.argv0, got, tt.want)
		}
	}
}
