// Package runcmd runs a helper command (mkfs.xfs, mount, cc, strace) for
// the benchmark tools, and turns its failure into an error that says what
// ran and what it printed.
package runcmd

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Run runs name with args and returns nil if it succeeds; if it fails,
// the error names the command (its base name and arguments), how it
// failed, and its standard output and error, trimmed.
func Run(ctx context.Context, name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}
