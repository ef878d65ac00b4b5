package main

import (
	"slices"
	"strings"
)

// GNU head learns its locale from the environment with
// setlocale(LC_ALL, ""), and the locale decides how its messages quote:
// ‘like this’ when the locale's character set is UTF-8, 'like this'
// otherwise (gnulib's quote(), which falls back to U+2018 and U+2019 when
// the message catalog has no translation for the quotes). This file and
// its platform files work out the same answer without a C library.

// localeCategories are the categories setlocale(LC_ALL, "") sets. If any
// of them names a locale that cannot be loaded, the call fails and the
// program stays in the C locale.
var localeCategories = []string{
	"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
	"LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION",
}

// localeQuoting returns the quoting of the locale that
// setlocale(LC_ALL, "") would select from the environment: UTF-8 if
// every category's locale can be loaded and LC_CTYPE's character set is
// UTF-8, else the C locale's.
func localeQuoting(lookupEnv func(string) (string, bool)) quoting {
	finder := newLocaleFinder(lookupEnv)
	var ctype string
	for _, category := range localeCategories {
		found, ok := finder.find(localeName(category, lookupEnv), category)
		if !ok {
			return quoting{}
		}
		if category == "LC_CTYPE" {
			ctype = found
		}
	}
	return quoting{utf8: normalizeCodeset(explodeLocale(ctype).codeset) == "utf8"}
}

// localeName is the locale the environment gives category: the first of
// $LC_ALL, $category and $LANG that is set and not empty, else "C".
func localeName(category string, lookupEnv func(string) (string, bool)) string {
	for _, name := range []string{"LC_ALL", category, "LANG"} {
		if v, ok := lookupEnv(name); ok && v != "" {
			return v
		}
	}
	return "C"
}

// builtinLocale reports whether name is one of the locales every C
// library has without loading anything.
func builtinLocale(name string) bool { return name == "C" || name == "POSIX" }

// localeParts are the parts of an XPG locale name,
// language[_territory][.codeset][@modifier].
type localeParts struct {
	language, territory, codeset, modifier string
}

// explodeLocale splits a locale name into its parts.
func explodeLocale(name string) localeParts {
	var p localeParts
	name, p.modifier, _ = strings.Cut(name, "@")
	name, p.codeset, _ = strings.Cut(name, ".")
	p.language, p.territory, _ = strings.Cut(name, "_")
	return p
}

// normalizeCodeset returns a codeset name as glibc files locales under:
// its letters in lower case and its digits, nothing else, with "iso" in
// front if only digits are left ("UTF-8" is "utf8", "8859-1" "iso88591").
func normalizeCodeset(codeset string) string {
	var b strings.Builder
	digitsOnly := true
	for i := 0; i < len(codeset); i++ {
		switch c := codeset[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			b.WriteByte(c | 0x20)
			digitsOnly = false
		case c >= '0' && c <= '9':
			b.WriteByte(c)
		}
	}
	if digitsOnly && b.Len() > 0 {
		return "iso" + b.String()
	}
	return b.String()
}

// joinLocale puts a locale name together from its parts, leaving out the
// empty ones.
func joinLocale(language, territory, codeset, modifier string) string {
	name := language
	if territory != "" {
		name += "_" + territory
	}
	if codeset != "" {
		name += "." + codeset
	}
	if modifier != "" {
		name += "@" + modifier
	}
	return name
}

// localeCandidates returns the names glibc tries for a locale, most
// specific first: the name as given and with its codeset normalized,
// then with the territory, the codeset and the modifier left off in
// glibc's order (the modifier goes last), down to the language alone.
func localeCandidates(name string) []string {
	p := explodeLocale(name)
	norm := normalizeCodeset(p.codeset)
	if p.codeset == "" || norm == p.codeset {
		norm = "" // no second spelling to try
	}
	var out []string
	for _, modifier := range []string{p.modifier, ""} {
		for _, territory := range []string{p.territory, ""} {
			for _, codeset := range []string{p.codeset, norm, ""} {
				c := joinLocale(p.language, territory, codeset, modifier)
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}
