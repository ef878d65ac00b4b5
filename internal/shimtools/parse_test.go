package shimtools

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTestJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     Results
	}{
		{"pass fail skip", `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"fail","Package":"p","Test":"TestB/sub","Elapsed":0}
{"Action":"skip","Package":"p","Test":"TestC","Elapsed":0}
{"Action":"fail","Package":"p","Elapsed":0.1}
`, Results{"p TestA": "pass", "p TestB/sub": "fail", "p TestC": "skip", "p": "fail"}},
		{"build failure and stray lines", `go: downloading example.com/m v1.0.0
{"ImportPath":"q","Action":"build-output","Output":"q.go:1: syntax error\n"}
{"ImportPath":"q","Action":"build-fail"}
{"Action":"fail","Package":"q","Elapsed":0,"FailedBuild":"q"}
`, Results{"q": "fail"}},
		{"nothing", "", Results{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTestJSON(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	if _, err := ParseTestJSON(strings.NewReader("{\"Action\":\n")); err == nil {
		t.Error("a truncated JSON line gave no error")
	}
}

func TestDifferences(t *testing.T) {
	want := Results{"p": "pass", "p TestA": "pass", "p TestB": "fail", "p TestC": "skip"}
	got := Results{"p": "fail", "p TestA": "fail", "p TestB": "fail", "p TestD": "pass"}
	diff := Differences(want, got)
	wantDiff := []string{
		"p TestA: pass, then fail",
		"p TestC: skip, then not run",
		"p TestD: not run, then pass",
		"p: pass, then fail",
	}
	if d := cmp.Diff(wantDiff, diff); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if d := Differences(want, want); d != nil {
		t.Errorf("equal results differ: %v", d)
	}
	if n := got.Count("fail"); n != 2 {
		t.Errorf("Count(fail) = %d, want 2 (the package does not count)", n)
	}
}

func TestParseTrace(t *testing.T) {
	const in = `read(3</sys/kernel/mm/transparent_hugepage/hpage_pmd_size>, ""..., 20) = 8
read(3</mnt/x/input>, ""..., 131072) = 131072
read(3</mnt/x/input>, ""..., 131072) = 5
read(3</mnt/x/input>, ""..., 131072) = 0
read(3</mnt/x/input>, 0xc000100000, 131072) = -1 EINTR (Interrupted system call)
read(3</mnt/x/input>, ""..., 4096) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)
read(0</mnt/x/input>, ""..., 4096)       = 4096
write(1</dev/null>, ""..., 111)         = 111
write(1<pipe:[12345]>, ""..., 10)         = 10
write(2</dev/pts/0>, ""..., 10)         = 10
--- SIGURG {si_signo=SIGURG, si_code=SI_TKILL, si_pid=1, si_uid=0} ---
`
	var c Calls
	if err := ParseTrace(strings.NewReader(in), "/mnt/x/input", &c); err != nil {
		t.Fatal(err)
	}
	want := Calls{Reads: 4, ReadBytes: 131072 + 5 + 4096, MaxAsk: 131072, Writes: 2, WriteBytes: 121}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseSummary(t *testing.T) {
	const in = `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ------------------
 63.75    0.095065         402       236        44 futex
  8.79    0.013104           4      3009           read
  0.00    0.000000           0         1           prlimit64
------ ----------- ----------- --------- --------- ------------------
100.00    0.149113          37      3947        46 total
`
	got, err := ParseSummary(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Syscall{
		{"futex", 63.75, 0.095065, 236},
		{"read", 8.79, 0.013104, 3009},
		{"prlimit64", 0, 0, 1},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"", "strace: exec: No such file or directory\n", " 1.0 x 3 4 5 read\n"} {
		if _, err := ParseSummary(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseSummary(%q) gave no error", bad)
		}
	}
}

func TestToolCommand(t *testing.T) {
	tests := []struct {
		tool  Tool
		input string
		want  []string
	}{
		{Tool{Args: []string{"-R", "length"}}, "/in", []string{"-R", "length", "/in"}},
		{Tool{Args: []string{"-R", "length"}}, "", []string{"-R", "length"}},
		{Tool{FileFlag: "-in"}, "/in", []string{"-in", "/in"}},
		{Tool{FileFlag: "-in"}, "", nil},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, tt.tool.Command(tt.input)); d != "" {
			t.Errorf("%+v.Command(%q) (-want +got):\n%s", tt.tool, tt.input, d)
		}
	}
	// Command must not write into the table's own Args.
	tools := Tools()
	before := append([]string(nil), tools[0].Args...)
	_ = append(tools[0].Command("x"), "y")
	if d := cmp.Diff(before, tools[0].Args); d != "" {
		t.Errorf("Command changed Args: %s", d)
	}
}

func TestToolsPinned(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range Tools() {
		if seen[tool.Name] {
			t.Errorf("two tools named %s", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Module == "" || !strings.HasPrefix(tool.Version, "v") || tool.Main == "" || len(tool.Tests) == 0 || tool.LinesDiv < 1 || tool.Why == "" {
			t.Errorf("%s: incomplete: %+v", tool.Name, tool)
		}
		if (tool.Buffer == Fixed) != (tool.Size > 0) {
			t.Errorf("%s: Size %d with Buffer %v", tool.Name, tool.Size, tool.Buffer)
		}
	}
}
