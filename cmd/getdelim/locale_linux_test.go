package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocaleQuotingLOCPATH builds locales as directories under $LOCPATH
// (a file per category is all the finder looks at) and checks which
// settings give UTF-8 quoting.
func TestLocaleQuotingLOCPATH(t *testing.T) {
	locpath := t.TempDir()
	for _, name := range []string{"xx_YY.UTF-8", "xx_YY.iso88591", "zz_ZZ.utf8", "yy"} {
		for _, category := range localeCategories {
			path := filepath.Join(locpath, name, category)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		env  string // space-separated NAME=VALUE
		utf8 bool
	}{
		{"", false},
		{"LANG=C", false},
		{"LANG=xx_YY.UTF-8", true},
		{"LANG=xx_YY.UTF-8@mod", true},
		{"LANG=xx_YY.utf8", false}, // the directory has the codeset as given
		{"LANG=zz_ZZ.UTF-8", true}, // found under its normalized codeset
		{"LANG=zz_ZZ.utf8", true},
		{"LANG=xx_YY.ISO-8859-1", false},
		{"LANG=yy_QQ.UTF-8", false}, // found as yy, whose codeset the name does not say
		{"LANG=xx_YY.UTF-8 LC_TIME=nowhere", false},
		{"LANG=xx_YY.UTF-8 LC_CTYPE=yy", false},
		{"LANG=yy LC_CTYPE=zz_ZZ.utf8", true},
		{"LC_ALL=xx_YY.UTF-8 LC_TIME=nowhere", true},
		{"LC_ALL=C LANG=xx_YY.UTF-8", false},
		{"LANG=../xx_YY.UTF-8", false},
	}
	for _, tt := range tests {
		env := map[string]string{"LOCPATH": locpath}
		for _, kv := range strings.Fields(tt.env) {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
		if got := localeQuoting(lookup); got.utf8 != tt.utf8 {
			t.Errorf("localeQuoting(%s) is UTF-8: %v, want %v", tt.env, got.utf8, tt.utf8)
		}
	}
}

// TestArchiveNames reads a locale archive that localedef writes.
func TestArchiveNames(t *testing.T) {
	localedef, err := exec.LookPath("localedef")
	if err != nil {
		t.Skipf("no localedef to write an archive: %v", err)
	}
	prefix := t.TempDir()
	if err := os.MkdirAll(filepath.Join(prefix, localeDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"xx_YY.ASCII", "zz"} {
		cmd := exec.Command(localedef, "--prefix="+prefix, "-i", "C", "-f", "ANSI_X3.4-1968", name)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("localedef cannot write an archive here: %v\n%s", err, out)
		}
	}
	f, err := os.Open(filepath.Join(prefix, localeArchive))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := archiveNames(f)
	// localedef files a name under its normalized codeset, and one
	// without a codeset under the name with it too.
	if !got["xx_YY.ascii"] || !got["zz"] || got["xx_YY.ASCII"] {
		t.Errorf("archiveNames = %v, want xx_YY.ascii and zz", got)
	}
	aliases := filepath.Join(prefix, "locale.alias")
	if err := os.WriteFile(aliases, []byte("# comment\nplain xx_YY.ASCII\nother\tnowhere.UTF-8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	finder := &localeFinder{dirs: []string{t.TempDir()}, archivePath: f.Name(), aliasesPath: aliases}
	for name, want := range map[string]string{
		"xx_YY.ASCII": "xx_YY.ascii", "xx_YY.ascii": "xx_YY.ascii", "xx_YY.US-ASCII": "", "zz": "zz",
		"plain": "xx_YY.ascii", "other": "", "C": "C", "xx_YY": "",
	} {
		if got, ok := finder.find(name, "LC_CTYPE"); got != want || ok != (want != "") {
			t.Errorf("find(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if names := archiveNames(strings.NewReader("not an archive, but long enough to hold a header")); names != nil {
		t.Errorf("archiveNames of a text = %v, want nil", names)
	}
}
