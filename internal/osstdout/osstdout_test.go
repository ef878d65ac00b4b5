package osstdout

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func templates(t *testing.T) map[string][]byte { t.Helper(); return templatesOf(t, "std") }

// TestFilesRenamesEveryHook: on the toolchain that runs the test, every
// method and function the added files wrap is renamed, in the files that
// declare it and nowhere else, and the added files lose their build tag.
func TestFilesRenamesEveryHook(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env GOROOT GOVERSION: %v", err)
	}
	env := strings.Fields(string(out))
	files, err := Files(env[0], env[1], templates(t))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Builder{}
	for name, b := range files {
		if strings.HasPrefix(name, "zz_stdiobuf_") {
			if strings.Contains(string(b), buildTag) {
				t.Errorf("%s keeps its build tag", name)
			}
			continue
		}
		all.Write(b)
	}
	for _, m := range Methods {
		if !strings.Contains(all.String(), ") "+rawPrefix+m+"(") {
			t.Errorf("no method %s%s in the patched files", rawPrefix, m)
		}
	}
	for _, f := range Funcs {
		if !strings.Contains(all.String(), "func "+rawPrefix+f+"(") {
			t.Errorf("no func %s%s in the patched files", rawPrefix, f)
		}
	}
	if !regexp.MustCompile(`(?m)^\t` + aliasField + `\s+` + aliasType + `$`).MatchString(all.String()) {
		t.Errorf("no field %s in the patched files", aliasField)
	}
}

// TestFilesNamesWhatIsMissing: a toolchain whose os lacks a hooked name
// stops the generation with an error naming it and the Go version.
func TestFilesNamesWhatIsMissing(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "src", "os")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// An os with every hook but Chown and StartProcess.
	var src strings.Builder
	src.WriteString("package os\n\ntype File struct{ *file }\n\ntype file struct{ fd int }\n\n")
	for _, m := range Methods {
		if m != "Chown" {
			src.WriteString("func (f *File) " + m + "() {}\n")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "file.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Files(root, "go9.99", templates(t))
	if !errors.Is(err, ErrMissing) {
		t.Fatalf("err = %v, want ErrMissing", err)
	}
	if diff := cmp.Diff("osstdout: package os lacks a name -stdout wraps: go9.99 has no *File.Chown, StartProcess", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}
