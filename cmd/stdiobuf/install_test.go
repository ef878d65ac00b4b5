package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// proxyFailure returns the line of out, a failed go command's output,
// that says the module proxy could not be reached, or "" if none does.
func proxyFailure(out string) string {
	for line := range strings.SplitSeq(out, "\n") {
		for _, sign := range []string{"disabled by GOPROXY=off", "dial tcp", "no such host", "i/o timeout",
			"connection refused", "network is unreachable", "TLS handshake timeout", "proxyconnect"} {
			if strings.Contains(line, sign) {
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}

func TestProxyFailure(t *testing.T) {
	const imports = "go: github.com/stdiobuf/stdiobuf/cmd/stdiobuf imports\n\tgithub.com/stdiobuf/stdiobuf/stream imports\n"
	for _, tt := range []struct{ out, want string }{
		{imports + "\tgolang.org/x/sys/unix: module lookup disabled by GOPROXY=off\n",
			"golang.org/x/sys/unix: module lookup disabled by GOPROXY=off"},
		{imports + "\tgolang.org/x/sys/unix: golang.org/x/sys@v0.50.0: Get \"http://127.0.0.1:9/golang.org/x/sys/@v/v0.50.0.zip\": dial tcp 127.0.0.1:9: connect: connection refused\n",
			"golang.org/x/sys/unix: golang.org/x/sys@v0.50.0: Get \"http://127.0.0.1:9/golang.org/x/sys/@v/v0.50.0.zip\": dial tcp 127.0.0.1:9: connect: connection refused"},
		{"go: example.com/m imports\n\tgithub.com/x/y: cannot find module providing package github.com/x/y\n", ""},
		{"go: errors parsing go.mod:\ngo.mod:3: unknown directive: tol\n", ""},
	} {
		if got := proxyFailure(tt.out); got != tt.want {
			t.Errorf("proxyFailure(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}

// TestToolDirective installs stdiobuf as Go users install tools, in a
// temporary module beside no clone: go mod edit -replace (to this clone)
// and -tool, go mod tidy, then go tool stdiobuf build, whose program gets
// the policy built in; its help names this clone's README. The same from
// a go.work that uses the clone, with go install. go mod tidy may ask the
// module proxy; the test skips, saying so, when it cannot be reached.
func TestToolDirective(t *testing.T) {
	testOverlay(t, "-policy", "64K") // skips under -short
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	clone, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), append(testCacheEnv(), "GOWORK=off", "GOFLAGS=-mod=mod")...)
	// HOME is the tests' cache: keep go's own settings and caches.
	for _, name := range []string{"GOENV", "GOMODCACHE", "GOCACHE", "GOPATH"} {
		out, err := exec.Command(goCmd, "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, name+"="+strings.TrimSpace(string(out)))
	}
	run := func(t *testing.T, dir string, env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin = strings.NewReader("x\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			if why := proxyFailure(string(out)); why != "" && args[1] == "mod" {
				t.Skipf("%q needs the module proxy, which is not reachable: %s", args, why)
			}
			t.Fatalf("%q in %s: %v\n%s", args, dir, err, out)
		}
		return string(out)
	}
	newModule := func(t *testing.T, path string) string {
		t.Helper()
		dir := t.TempDir()
		for name, text := range map[string]string{"go.mod": "module " + path + "\n\ngo 1.25\n", "main.go": chdirModule["main.go"]} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	readme := filepath.Join(clone, "README.md")

	t.Run("tool directive", func(t *testing.T) {
		dir := newModule(t, "example.com/usetool")
		run(t, dir, env, goCmd, "mod", "edit", "-replace", "github.com/stdiobuf/stdiobuf="+clone, "-tool", "github.com/stdiobuf/stdiobuf/cmd/stdiobuf")
		run(t, dir, env, goCmd, "mod", "tidy")
		if gomod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || !strings.Contains(string(gomod), "\ntool github.com/stdiobuf/stdiobuf/cmd/stdiobuf\n") {
			t.Fatalf("go.mod after go mod tidy: %v\n%s", err, gomod)
		}
		run(t, dir, env, goCmd, "tool", "stdiobuf", "build", "-policy", "64K", "-o", "prog", ".")
		if got := strings.TrimSpace(run(t, dir, env, filepath.Join(dir, "prog"))); got != "65536" {
			t.Errorf("go tool stdiobuf build -policy 64K: the program says Size %s, want 65536", got)
		}
		if help := run(t, dir, env, goCmd, "tool", "stdiobuf", "help"); !strings.Contains(help, readme) {
			t.Errorf("go tool stdiobuf help does not name %s:\n%s", readme, help)
		}
	})
	t.Run("go.work", func(t *testing.T) {
		dir := newModule(t, "example.com/usework")
		// A workspace refuses -mod=mod.
		wenv := append(env[:len(env):len(env)], "GOWORK=", "GOFLAGS=", "GOBIN="+filepath.Join(dir, "bin"))
		run(t, dir, wenv, goCmd, "work", "init", ".", clone)
		run(t, dir, wenv, goCmd, "install", "github.com/stdiobuf/stdiobuf/cmd/stdiobuf")
		out := run(t, dir, wenv, filepath.Join(dir, "bin", "stdiobuf"), "version", "-policy", "64K")
		if !strings.Contains(out, "policy: 65536 (built in by -policy;") {
			t.Errorf("stdiobuf version -policy 64K, installed from a go.work:\n%s", out)
		}
	})
}
