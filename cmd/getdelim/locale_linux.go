package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// glibc loads a locale named by the environment from, in order:
//
//   - the locale archive, /usr/lib/locale/locale-archive, under the name
//     with its codeset normalized (en_US.UTF-8 is filed as en_US.utf8),
//     then under the name's alias; only when $LOCPATH is not set;
//   - directories, each locale a directory holding a file per category:
//     those of $LOCPATH, then /usr/lib/locale. A name is tried whole and
//     then with parts left off (see localeCandidates), each in every
//     directory before the next.
//
// Aliases come from /usr/share/locale/locale.alias ("german" is
// de_DE.ISO-8859-1).

const (
	localeDir     = "/usr/lib/locale"
	localeArchive = localeDir + "/locale-archive"
	localeAliases = "/usr/share/locale/locale.alias"
)

// A localeFinder answers whether a locale can be loaded, reading glibc's
// files the first time it needs them.
type localeFinder struct {
	dirs                     []string
	archivePath, aliasesPath string // "" for none
	loaded                   bool
	archive                  map[string]bool   // the names in the locale archive
	aliases                  map[string]string // locale.alias
}

// newLocaleFinder returns a finder for the environment lookupEnv reads.
func newLocaleFinder(lookupEnv func(string) (string, bool)) *localeFinder {
	f := &localeFinder{archivePath: localeArchive, aliasesPath: localeAliases}
	if v, ok := lookupEnv("LOCPATH"); ok && v != "" {
		f.dirs, f.archivePath = strings.Split(v, ":"), ""
	}
	f.dirs = append(f.dirs, localeDir)
	return f
}

// find returns the name under which glibc would load the locale name for
// category, and false if it would fail. A name with a slash is not
// found: glibc 2.36 loads no locale named by a path
// (LANG=/usr/lib/locale/C.utf8 leaves head in the C locale).
func (f *localeFinder) find(name, category string) (string, bool) {
	if builtinLocale(name) {
		return name, true
	}
	if name == "" || strings.Contains(name, "/") {
		return "", false
	}
	if !f.loaded {
		f.load()
	}
	alias, hasAlias := f.aliases[name]
	if f.archive != nil {
		for _, n := range []string{name, alias} {
			if n == "" {
				continue
			}
			if norm := archiveName(n); f.archive[norm] {
				return norm, true
			}
		}
	}
	if hasAlias {
		name = alias
	}
	for _, candidate := range localeCandidates(name) {
		for _, dir := range f.dirs {
			if _, err := os.Stat(filepath.Join(dir, candidate, category)); err == nil {
				return candidate, true
			}
		}
	}
	return "", false
}

// load reads the alias file and the archive's names; a file that is
// missing or unreadable counts as empty, as it does to glibc.
func (f *localeFinder) load() {
	f.loaded = true
	if a, err := os.Open(f.aliasesPath); err == nil {
		f.aliases = readAliases(a)
		a.Close()
	}
	if a, err := os.Open(f.archivePath); err == nil {
		f.archive = archiveNames(a)
		a.Close()
	}
}

// archiveName is name as the archive files it: with its codeset
// normalized.
func archiveName(name string) string {
	p := explodeLocale(name)
	if p.codeset == "" {
		return name
	}
	return joinLocale(p.language, p.territory, normalizeCodeset(p.codeset), p.modifier)
}

// readAliases reads a locale.alias file: lines of an alias and a locale
// name separated by blanks; '#' starts a comment line. The first
// definition of an alias wins.
func readAliases(r io.Reader) map[string]string {
	aliases := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if _, dup := aliases[fields[0]]; !dup {
			aliases[fields[0]] = fields[1]
		}
	}
	return aliases
}

// archiveMagic starts glibc's locale archive (locarchive.h's AR_MAGIC).
const archiveMagic = 0xde020109

// archiveNames returns the locale names in a glibc locale archive, or
// nil if r is not one. The archive starts with a header of 32-bit words
// in the machine's byte order: the magic number, a serial number, then
// the offset, used count and size of the name hash table, then those of
// the string table. Each hash table entry is three words: a hash, the
// offset of the name (a NUL-terminated string in the string table), and
// the offset of the locale's record, 0 for an empty slot.
func archiveNames(r io.ReaderAt) map[string]bool {
	var head [8]uint32
	if binary.Read(io.NewSectionReader(r, 0, 32), binary.NativeEndian, &head) != nil || head[0] != archiveMagic {
		return nil
	}
	hashOff, hashSize, strOff, strSize := int64(head[2]), int64(head[4]), int64(head[5]), int64(head[7])
	const maxTable = 64 << 20 // far past any archive's; guards a corrupt header
	if hashSize*12 > maxTable || strSize > maxTable {
		return nil
	}
	table := make([]uint32, 3*hashSize)
	if binary.Read(io.NewSectionReader(r, hashOff, 12*hashSize), binary.NativeEndian, table) != nil {
		return nil
	}
	strs := make([]byte, strSize)
	if _, err := r.ReadAt(strs, strOff); err != nil && err != io.EOF {
		return nil
	}
	names := map[string]bool{}
	for i := 0; i+2 < len(table); i += 3 {
		nameOff, record := int64(table[i+1])-strOff, table[i+2]
		if record == 0 || nameOff < 0 || nameOff >= int64(len(strs)) {
			continue
		}
		name, _, _ := strings.Cut(string(strs[nameOff:]), "\x00")
		names[name] = true
	}
	return names
}
