package runcmd

import (
	"context"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the error's text; "" for none
	}{
		{"true", nil, ""},
		{"/bin/sh", []string{"-c", "echo out; echo err >&2; exit 3"}, "sh -c echo out; echo err >&2; exit 3: exit status 3: out\nerr"},
		{"/no/such/tool", []string{"x"}, "tool x: fork/exec /no/such/tool: no such file or directory: "},
	}
	for _, tt := range tests {
		err := Run(context.Background(), tt.name, tt.args...)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Run(%q, %q) = %q, want %q", tt.name, tt.args, got, tt.want)
		}
	}
}
