package main

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCount(t *testing.T) {
	tests := []struct {
		in      string
		lines   bool
		want    uint64
		wantErr string
	}{
		{in: "0", want: 0},
		{in: "10", want: 10},
		{in: "010", want: 10},
		{in: " \t5", want: 5},
		{in: "+5", want: 5},
		{in: "1b", want: 512},
		{in: "b", want: 512},
		{in: "1k", want: 1024},
		{in: "1K", want: 1024},
		{in: "K", want: 1024},
		{in: "1kB", want: 1000},
		{in: "KB", want: 1000},
		{in: "1KD", want: 1000},
		{in: "1KiB", want: 1024},
		{in: "1kiB", want: 1024},
		{in: "1m", want: 1 << 20},
		{in: "1MB", want: 1000000},
		{in: "1mB", want: 1000000},
		{in: "2MiB", want: 2 << 20},
		{in: "3G", want: 3 << 30},
		{in: "1GB", want: 1e9},
		{in: "1T", want: 1 << 40},
		{in: "1P", want: 1 << 50},
		{in: "15E", want: 15 << 60},
		{in: "18446744073709551615", want: math.MaxUint64},
		{in: "abc", lines: true, wantErr: "invalid number of lines: 'abc'"},
		{in: "", lines: true, wantErr: "invalid number of lines: ''"},
		{in: "-5", wantErr: "invalid number of bytes: '-5'"},
		{in: " -5", wantErr: "invalid number of bytes: ' -5'"},
		{in: "+", wantErr: "invalid number of bytes: '+'"},
		{in: "+K", wantErr: "invalid number of bytes: '+K'"},
		{in: " K", wantErr: "invalid number of bytes: ' K'"},
		{in: "5 ", wantErr: "invalid number of bytes: '5 '"},
		{in: "0x10", wantErr: "invalid number of bytes: '0x10'"},
		{in: "1bB", wantErr: "invalid number of bytes: '1bB'"},
		{in: "1Ki", wantErr: "invalid number of bytes: '1Ki'"},
		{in: "1KBx", wantErr: "invalid number of bytes: '1KBx'"},
		{in: "iB", wantErr: "invalid number of bytes: 'iB'"},
		{in: "1B", wantErr: "invalid number of bytes: '1B'"},
		{in: "1g", wantErr: "invalid number of bytes: '1g'"},
		{in: "1t", wantErr: "invalid number of bytes: '1t'"},
		{in: "1w", wantErr: "invalid number of bytes: '1w'"},
		{in: "1R", wantErr: "invalid number of bytes: '1R'"},
		{in: "1Q", wantErr: "invalid number of bytes: '1Q'"},
		{in: "1Zi", wantErr: "invalid number of bytes: '1Zi'"},
		{in: "99999999999999999999x", wantErr: "invalid number of bytes: '99999999999999999999x'"},
		{in: "a'b\t\\", lines: true, wantErr: `invalid number of lines: 'a\'b\t\\'`},
		{in: "16E", wantErr: "invalid number of bytes: '16E': Value too large for defined data type"},
		{in: "1Z", wantErr: "invalid number of bytes: '1Z': Value too large for defined data type"},
		{in: "1YiB", wantErr: "invalid number of bytes: '1YiB': Value too large for defined data type"},
		{in: "18446744073709551616", lines: true,
			wantErr: "invalid number of lines: '18446744073709551616': Value too large for defined data type"},
		{in: "99999999999999999999k", wantErr: "invalid number of bytes: '99999999999999999999k': Value too large for defined data type"},
	}
	for _, tt := range tests {
		got, err := parseCount(tt.in, tt.lines, quoting{})
		if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
			t.Errorf("parseCount(%q) error mismatch (-want +got):\n%s", tt.in, diff)
			continue
		}
		if err == nil && got != tt.want {
			t.Errorf("parseCount(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// errText is err's text, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
