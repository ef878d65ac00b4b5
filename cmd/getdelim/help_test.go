package main

import (
	"strings"
	"testing"
)

// TestHelpDescribesPaths checks that --help gives the classic
// getdelim/fwrite loop to --loop, which is the only path that uses it.
func TestHelpDescribesPaths(t *testing.T) {
	var b strings.Builder
	writeHelp(&b, "getdelim")
	help := b.String()
	intro, _, _ := strings.Cut(help, "With more than one FILE")
	if strings.Contains(intro, "fwrite") || !strings.Contains(intro, "whole runs") {
		t.Errorf("--help's description of the default path:\n%s", intro)
	}
	_, loop, _ := strings.Cut(help, "--loop")
	loop, _, _ = strings.Cut(loop, "--policy")
	if !strings.Contains(loop, "getdelim") || !strings.Contains(loop, "fwrite") {
		t.Errorf("--help's --loop line does not name the getdelim/fwrite loop:%s", loop)
	}
}
