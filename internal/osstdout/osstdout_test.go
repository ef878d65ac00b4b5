package osstdout

import (
	"errors"
	"os/exec"
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
	files, err := Files(env[0], env[1], templates(t), false)
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
		name := m[strings.LastIndex(m, ".")+1:]
		if !strings.Contains(all.String(), ") "+rawPrefix+name+"(") {
			t.Errorf("no method %s%s in the patched files", rawPrefix, name)
		}
	}
	for _, f := range Funcs {
		if !strings.Contains(all.String(), "func "+rawPrefix+f+"(") {
			t.Errorf("no func %s%s in the patched files", rawPrefix, f)
		}
	}
	for _, fd := range addedFields {
		if !regexp.MustCompile(`(?m)^\t` + fd[0] + `\s+` + fd[1] + `$`).MatchString(all.String()) {
			t.Errorf("no field %s in the patched files", fd[0])
		}
	}
}

// TestFilesNamesWhatIsMissing: a toolchain whose os lacks a hooked name
// stops the generation with an error naming it and the Go version.
func TestFilesNamesWhatIsMissing(t *testing.T) {
	// An os with every hook but Chown and StartProcess.
	var src strings.Builder
	src.WriteString("package os\n\ntype File struct{ *file }\n\ntype file struct{ fd int }\n\ntype Process struct{}\n\n")
	for _, m := range Methods {
		recv, name := "File", m
		if i := strings.Index(m, "."); i >= 0 {
			recv, name = m[:i], m[i+1:]
		}
		if name != "Chown" {
			src.WriteString("func (x *" + recv + ") " + name + "() {}\n")
		}
	}
	_, err := Files(fakeGOROOT(t, src.String()), "go9.99", templates(t), false)
	if !errors.Is(err, ErrMissing) {
		t.Fatalf("err = %v, want ErrMissing", err)
	}
	if diff := cmp.Diff("osstdout: package os lacks a name -stdout wraps: go9.99 has no *File.Chown, StartProcess", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// TestFilesWithFiles: with -files, the names of FilesMethods and
// FilesFuncs are renamed too, stdioFilesOn is true, and the files
// directory's sys_linux.go is merged into os's; without it, none of that.
func TestFilesWithFiles(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env GOROOT GOVERSION: %v", err)
	}
	env := strings.Fields(string(out))
	all := func(files map[string][]byte) string {
		var b strings.Builder
		for _, name := range sorted(keys(files)) {
			b.Write(files[name])
		}
		return b.String()
	}
	tmpl := templates(t)
	plain, err := Files(env[0], env[1], tmpl, false)
	if err != nil {
		t.Fatal(err)
	}
	with := templates(t)
	for name, b := range templatesOf(t, "files") {
		with[name] = b
	}
	files, err := Files(env[0], env[1], with, true)
	if err != nil {
		t.Fatal(err)
	}
	type shows struct {
		On, OpenFile, ReadAt, PlainKind bool
	}
	look := func(src string) shows {
		return shows{
			On:        strings.Contains(src, filesOn),
			OpenFile:  strings.Contains(src, "func "+rawPrefix+"OpenFile("),
			ReadAt:    strings.Contains(src, ") "+rawPrefix+"ReadAt("),
			PlainKind: strings.Contains(string(files["sys_linux.go"]), "func hostname(") && strings.Contains(src, "stdioPlainKind = stdioLinuxPlainKind"),
		}
	}
	if diff := cmp.Diff(shows{true, true, true, true}, look(all(files))); diff != "" {
		t.Errorf("with -files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(shows{}, look(all(plain))); diff != "" {
		t.Errorf("without -files (-want +got):\n%s", diff)
	}
	for _, m := range FilesMethods {
		name := m[strings.LastIndex(m, ".")+1:]
		if !strings.Contains(all(files), ") "+rawPrefix+name+"(") {
			t.Errorf("no method %s%s with -files", rawPrefix, name)
		}
	}
	for _, f := range FilesFuncs {
		if !strings.Contains(all(files), "func "+rawPrefix+f+"(") {
			t.Errorf("no func %s%s with -files", rawPrefix, f)
		}
	}
}

func keys(m map[string][]byte) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}
