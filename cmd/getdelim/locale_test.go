package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLocaleName(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want map[string]string // category: name
	}{
		{env: nil, want: map[string]string{"LC_CTYPE": "C", "LC_MESSAGES": "C"}},
		{env: map[string]string{"LANG": "C.UTF-8"}, want: map[string]string{"LC_CTYPE": "C.UTF-8", "LC_TIME": "C.UTF-8"}},
		{env: map[string]string{"LANG": "C.UTF-8", "LC_CTYPE": "POSIX"}, want: map[string]string{"LC_CTYPE": "POSIX", "LC_TIME": "C.UTF-8"}},
		{env: map[string]string{"LANG": "a", "LC_CTYPE": "b", "LC_ALL": "c"}, want: map[string]string{"LC_CTYPE": "c", "LC_TIME": "c"}},
		{env: map[string]string{"LANG": "a", "LC_CTYPE": "", "LC_ALL": ""}, want: map[string]string{"LC_CTYPE": "a"}},
	}
	for _, tt := range tests {
		lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
		got := map[string]string{}
		for category := range tt.want {
			got[category] = localeName(category, lookup)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("localeName with %v (-want +got):\n%s", tt.env, diff)
		}
	}
}

func TestNormalizeCodeset(t *testing.T) {
	for in, want := range map[string]string{
		"UTF-8": "utf8", "utf8": "utf8", "UTF8": "utf8", "ISO-8859-1": "iso88591", "8859-1": "iso88591",
		"eucJP": "eucjp", "": "", "-": "", "KOI8-R": "koi8r",
	} {
		if got := normalizeCodeset(in); got != want {
			t.Errorf("normalizeCodeset(%q) = %q, want %q", in, got, want)
		}
	}
}

// The orders are the ones strace shows glibc 2.36 trying.
func TestLocaleCandidates(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"C.utf8@x", []string{"C.utf8@x", "C@x", "C.utf8", "C"}},
		{"de_DE.ISO-8859-1", []string{"de_DE.ISO-8859-1", "de_DE.iso88591", "de_DE", "de.ISO-8859-1", "de.iso88591", "de"}},
		{"C.UTF-8", []string{"C.UTF-8", "C.utf8", "C"}},
		{"en_US", []string{"en_US", "en"}},
		{"sr_RS.UTF-8@latin", []string{
			"sr_RS.UTF-8@latin", "sr_RS.utf8@latin", "sr_RS@latin", "sr.UTF-8@latin", "sr.utf8@latin", "sr@latin",
			"sr_RS.UTF-8", "sr_RS.utf8", "sr_RS", "sr.UTF-8", "sr.utf8", "sr",
		}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, localeCandidates(tt.name)); diff != "" {
			t.Errorf("localeCandidates(%q) (-want +got):\n%s", tt.name, diff)
		}
	}
}
