package fstools

import (
	"bytes"
	"strings"
)

// ignoreRule is one pattern line of a .gitignore file.
type ignoreRule struct {
	segs     []string // pattern segments; one segment when not anchored
	negate   bool     // "!pattern" re-includes
	dirOnly  bool     // "pattern/" matches directories only
	anchored bool     // contains a slash: relative to the file's directory
}

// ignoreFile is a parsed .gitignore; base is its directory relative to the
// mount ("" at the mount root), slash-separated.
type ignoreFile struct {
	base  string
	rules []ignoreRule
}

// parseIgnore parses a .gitignore's text with git's rules: blank lines and
// "#" comments are skipped, "\#" and "\!" are literal, trailing spaces are
// dropped unless escaped, "!" negates, a trailing "/" means directories
// only, and a slash at the start or in the middle anchors the pattern to
// the file's directory.
func parseIgnore(data []byte, base string) *ignoreFile {
	f := &ignoreFile{base: base}
	for _, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSuffix(string(raw), "\r")
		line = trimTrailingSpaces(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
			r.segs = strings.Split(line, "/")
		} else {
			r.segs = []string{line}
		}
		f.rules = append(f.rules, r)
	}
	return f
}

// trimTrailingSpaces drops unescaped trailing spaces.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		rest := s[:len(s)-1]
		// Count the backslashes before the space: an odd number escapes it.
		n := 0
		for n < len(rest) && rest[len(rest)-1-n] == '\\' {
			n++
		}
		if n%2 == 1 {
			return s
		}
		s = rest
	}
	return s
}

// ignoreStack holds the .gitignore files that apply at one directory,
// outermost first.
type ignoreStack []*ignoreFile

// push returns a new stack with f on top; s is not modified.
func (s ignoreStack) push(f *ignoreFile) ignoreStack {
	out := make(ignoreStack, len(s), len(s)+1)
	copy(out, s)
	return append(out, f)
}

// ignored reports whether the path rel (relative to the mount root) is
// ignored: deeper files override shallower ones, and within a file the last
// matching rule decides.
func (s ignoreStack) ignored(rel string, isDir bool) bool {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	var parts []string
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		sub := rel
		if f.base != "" {
			if !strings.HasPrefix(rel, f.base+"/") {
				continue
			}
			sub = rel[len(f.base)+1:]
		}
		parts = nil
		for k := len(f.rules) - 1; k >= 0; k-- {
			r := &f.rules[k]
			if r.dirOnly && !isDir {
				continue
			}
			var hit bool
			if r.anchored {
				if parts == nil {
					parts = strings.Split(sub, "/")
				}
				hit = matchPath(r.segs, parts)
			} else {
				hit = matchSegment(r.segs[0], name)
			}
			if hit {
				return !r.negate
			}
		}
	}
	return false
}
