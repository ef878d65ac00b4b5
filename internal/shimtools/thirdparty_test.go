package shimtools

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
	"github.com/stdiobuf/stdiobuf/stream"
)

// gateEnv turns the third-party tests on: they download modules through the
// Go module proxy and build and test each tool twice, which takes minutes.
// .ci/run sets it to 1 (CI's subset of each tool's tests); "all" runs the
// wider sets (bench/shimtests.sh).
const gateEnv = "STDIOBUF_THIRDPARTY"

// workspace returns a Workspace for the test, or skips it when gateEnv is
// not set. STDIOBUF_CMD names a stdiobuf binary to use instead of building
// cmd/stdiobuf.
func workspace(t *testing.T) *Workspace {
	t.Helper()
	if os.Getenv(gateEnv) == "" {
		t.Skipf("set %s=1 to fetch third-party tools through the Go module proxy and test them under stdiobuf (minutes; .ci/run does)", gateEnv)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	dir := t.TempDir()
	sb := os.Getenv("STDIOBUF_CMD")
	if sb == "" {
		if sb, err = BuildStdiobuf(t.Context(), goCmd, dir); err != nil {
			t.Fatal(err)
		}
	}
	return &Workspace{Go: goCmd, Stdiobuf: sb, Dir: dir}
}

// TestThirdPartySuites runs each tool's own tests built plainly and with
// stdiobuf and wants the same outcome for every test.
func TestThirdPartySuites(t *testing.T) {
	ws := workspace(t)
	all := os.Getenv(gateEnv) == "all"
	// Tools of one module share their module's test run.
	var order []Tool
	pkgs := map[string][]string{}
	for _, tool := range Tools() {
		want := tool.Tests
		if all && tool.AllTests != nil {
			want = tool.AllTests
		}
		if _, ok := pkgs[tool.ID()]; !ok {
			order = append(order, tool)
		}
		for _, p := range want {
			if !slices.Contains(pkgs[tool.ID()], p) {
				pkgs[tool.ID()] = append(pkgs[tool.ID()], p)
			}
		}
	}
	for _, tool := range order {
		t.Run(tool.ID(), func(t *testing.T) {
			ctx := t.Context()
			plain, err := ws.Test(ctx, tool, Plain, pkgs[tool.ID()])
			if err != nil {
				t.Fatal(err)
			}
			shim, err := ws.Test(ctx, tool, Shim, pkgs[tool.ID()])
			if err != nil {
				t.Fatal(err)
			}
			if plain.Count("pass") == 0 {
				t.Fatalf("go test %v passed no test: %v", pkgs[tool.ID()], plain)
			}
			for _, d := range Differences(plain, shim) {
				t.Errorf("go test, then stdiobuf test: %s", d)
			}
			t.Logf("%s %v: %d passed, %d failed, %d skipped with go test; stdiobuf test: %d, %d, %d",
				tool.ID(), pkgs[tool.ID()], plain.Count("pass"), plain.Count("fail"), plain.Count("skip"),
				shim.Count("pass"), shim.Count("fail"), shim.Count("skip"))
		})
	}
}

// TestThirdPartyReads traces each tool, built both ways, over a file on an
// XFS mount with st_blksize 131072, named on its command line and as its
// standard input: built plainly it reads with bufio's 4096 bytes, built with
// stdiobuf with the policy's size (131072), except where the tool fixes its
// own size; the output is the same.
func TestThirdPartyReads(t *testing.T) {
	ws := workspace(t)
	if ok, why := CanMountXFS(); !ok {
		t.Skipf("no XFS loop mount: %s", why)
	}
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("strace is not installed")
	}
	ctx := t.Context()
	mnt, cleanup, err := MountXFS(ctx, t.TempDir(), 512<<20)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cleanup(); err != nil {
			t.Error(err)
		}
	})
	input, _, err := seedinput.File(mnt, seedinput.Lines/50, seedinput.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	policy := policySize(t, input)
	if policy != 131072 {
		t.Fatalf("stream's policy on the XFS mount gives %d, want 131072: is the mount's st_blksize 131072?", policy)
	}
	for _, tool := range Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			for _, stdin := range []bool{false, true} {
				var calls [2]Calls
				var sums [2][]byte
				for i, b := range Builds() {
					bin, err := ws.Build(ctx, tool, b)
					if err != nil {
						t.Fatal(err)
					}
					r := Run{Bin: bin, Input: input, Stdin: stdin, Args: tool.Command(input)}
					if stdin {
						r.Args = tool.Command("")
					}
					h := sha256.New()
					r.Stdout = h
					if calls[i], err = Trace(ctx, r, ws.Dir); err != nil {
						t.Fatal(err)
					}
					sums[i] = h.Sum(nil)
				}
				how := map[bool]string{false: "file argument", true: "standard input"}[stdin]
				if string(sums[0]) != string(sums[1]) {
					t.Errorf("%s: the two builds wrote different output", how)
				}
				checkReads(t, tool, how, calls, policy)
			}
		})
	}
}

// checkReads wants the read sizes Tool.Buffer promises from each build.
func checkReads(t *testing.T, tool Tool, how string, calls [2]Calls, policy int) {
	t.Helper()
	plain, shim := calls[0], calls[1]
	t.Logf("%s, %s: %d reads of up to %d bytes -> %d reads of up to %d bytes; %d writes -> %d writes",
		tool.Name, how, plain.Reads, plain.MaxAsk, shim.Reads, shim.MaxAsk, plain.Writes, shim.Writes)
	if plain.Reads == 0 || shim.Reads == 0 || plain.ReadBytes != shim.ReadBytes {
		t.Fatalf("%s: read %d bytes in %d calls plainly, %d in %d with stdiobuf: the trace missed the input",
			how, plain.ReadBytes, plain.Reads, shim.ReadBytes, shim.Reads)
	}
	wantPlain, wantShim := 4096, policy
	if tool.Buffer == Fixed {
		wantPlain, wantShim = tool.Size, tool.Size
	}
	if plain.MaxAsk != wantPlain {
		t.Errorf("%s: go build reads up to %d bytes, want %d", how, plain.MaxAsk, wantPlain)
	}
	if shim.MaxAsk != wantShim {
		t.Errorf("%s: stdiobuf build reads up to %d bytes, want %d", how, shim.MaxAsk, wantShim)
	}
}

// policySize is the buffer stream decides on for a Reader over path.
func policySize(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return stream.NewReader(f).Size()
}
