package catalog

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// The listing (GET /v1/tools) decoded without reflection: with 10,000
// tools, encoding/json spends most of `agsh help` in reflection and in
// Source's own decoding of each entry. decodeListing reads the answer's
// bytes directly into a toolsAnswer. It decides only what it is sure
// encoding/json would decide the same way: any other shape (a key that
// differs only in case, an escaped key, a value of an unexpected type, a
// duplicate key, bytes after the answer) reports false, and the caller
// decodes the same bytes with encoding/json, which keeps every message and
// tolerance it has.

// decodeListing decodes data into a (zeroed first); false leaves a zero.
func (a *toolsAnswer) decodeListing(data []byte) bool {
	*a = toolsAnswer{}
	s := &lscan{data: data, text: string(data)}
	if !s.members(a.member) || s.ws() != len(data) {
		*a = toolsAnswer{}
		return false
	}
	return true
}

// member reads one top-level member of the answer.
func (a *toolsAnswer) member(s *lscan, key []byte, seen *[4]bool) bool {
	k := -1
	switch string(key) {
	case "ok":
		k = 0
	case "tools":
		k = 1
	case "error":
		k = 2
	case "message":
		k = 3
	}
	if k < 0 {
		return !foldsTo(key, "ok", "tools", "error", "message") && s.skip(0)
	}
	if seen[k] {
		return false
	}
	seen[k] = true
	switch k {
	case 0:
		v, ok := s.boolean()
		a.OK = v
		return ok
	case 1:
		return s.toolEntries(&a.Tools)
	}
	start := s.i
	if !s.skip(0) {
		return false
	}
	raw := json.RawMessage(bytes.Clone(s.data[start:s.i]))
	if k == 2 {
		a.Error = raw
	} else {
		a.Message = raw
	}
	return true
}

// members reads an object, calling member for each key with the value
// next; seen tracks which known keys came (a duplicate is refused).
func (s *lscan) members(member func(s *lscan, key []byte, seen *[4]bool) bool) bool {
	if !s.open() {
		return false
	}
	var seen [4]bool
	for first := true; ; first = false {
		key, end, ok := s.member(first)
		if !ok || end {
			return ok
		}
		if !member(s, key, &seen) {
			return false
		}
	}
}

// toolEntries reads the "tools" array; null leaves it nil, as encoding/json.
func (s *lscan) toolEntries(out *[]ToolEntry) bool {
	if s.null() {
		return true
	}
	if s.i >= len(s.data) || s.data[s.i] != '[' {
		return false
	}
	// Every entry opens with '{' and takes 12 bytes at least ({"name":""},):
	// the count of one byte is a quick bound on the entries.
	rest := s.data[s.i:]
	tools := make([]ToolEntry, 0, min(bytes.Count(rest, []byte{'{'}), len(rest)/12+1))
	s.i++
	if s.ws(); s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		*out = tools
		return true
	}
	for {
		s.ws()
		var t ToolEntry
		if !s.null() && !s.toolEntry(&t) {
			return false
		}
		tools = append(tools, t)
		if s.ws(); s.i >= len(s.data) {
			return false
		}
		switch s.data[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			*out = tools
			return true
		default:
			return false
		}
	}
}

// toolEntry reads one entry object.
func (s *lscan) toolEntry(t *ToolEntry) bool {
	if !s.open() {
		return false
	}
	var seen [3]bool
	for first := true; ; first = false {
		key, end, ok := s.member(first)
		if !ok || end {
			return ok
		}
		k := -1
		switch string(key) {
		case "name":
			k = 0
		case "title":
			k = 1
		case "source":
			k = 2
		}
		switch {
		case k < 0:
			ok = !foldsTo(key, "name", "title", "source") && s.skip(0)
		case seen[k]:
			ok = false
		case k == 0:
			ok = s.str(&t.Name)
		case k == 1:
			ok = s.str(&t.Title)
		default:
			ok = s.source(&t.Source)
		}
		if k >= 0 {
			seen[k] = true
		}
		if !ok {
			return false
		}
	}
}

// source reads a Source as its UnmarshalJSON does: null is authored, a
// string names a connection, an object is read by its fields.
func (s *lscan) source(src *Source) bool {
	if s.null() {
		*src = Source{Kind: "authored"}
		return true
	}
	if s.i < len(s.data) && s.data[s.i] == '"' {
		var name string
		if !s.str(&name) {
			return false
		}
		if name == "" || name == "authored" {
			*src = Source{Kind: "authored"}
		} else {
			*src = Source{Kind: "connection", Connection: name}
		}
		return true
	}
	if !s.open() {
		return false
	}
	var p Source
	var seen [3]bool
	for first := true; ; first = false {
		key, end, ok := s.member(first)
		if !ok {
			return false
		}
		if end {
			break
		}
		k := -1
		switch string(key) {
		case "kind":
			k = 0
		case "connection":
			k = 1
		case "connector":
			k = 2
		}
		switch {
		case k < 0:
			ok = !foldsTo(key, "kind", "connection", "connector") && s.skip(0)
		case seen[k]:
			ok = false
		case k == 0:
			ok = s.str(&p.Kind)
		case k == 1:
			ok = s.str(&p.Connection)
		default:
			ok = s.str(&p.Connector)
		}
		if k >= 0 {
			seen[k] = true
		}
		if !ok {
			return false
		}
	}
	p.defaultKind()
	*src = p
	return true
}

// foldsTo reports a key that encoding/json might match to one of names
// although it is not spelled the same: it differs in case, or it has an
// escape or a non-ASCII byte (which this decoder does not fold).
func foldsTo(key []byte, names ...string) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

// lscan walks JSON bytes, checking them as encoding/json's scanner does.
// text is data as one string: the strings read are cut from it, not each
// allocated (10,000 tools have 30,000 of them).
type lscan struct {
	data []byte
	text string
	i    int
}

// ws skips white space and returns the offset reached.
func (s *lscan) ws() int {
	s.i = jsontext.SkipSpace(s.data, s.i)
	return s.i
}

// null consumes a null.
func (s *lscan) null() bool {
	if bytes.HasPrefix(s.data[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// boolean reads true or false; null leaves false.
func (s *lscan) boolean() (bool, bool) {
	switch {
	case bytes.HasPrefix(s.data[s.i:], []byte("true")):
		s.i += 4
		return true, true
	case bytes.HasPrefix(s.data[s.i:], []byte("false")):
		s.i += 5
		return false, true
	}
	return false, s.null()
}

// str reads a string into *dst; null leaves it. Escapes and invalid
// UTF-8 are decoded by encoding/json (which makes the latter U+FFFD).
func (s *lscan) str(dst *string) bool {
	if s.null() {
		return true
	}
	end, ok := jsontext.StringEnd(s.data, s.i)
	if !ok {
		return false
	}
	start := s.i
	raw := s.data[start:end]
	s.i = end
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		*dst = s.text[start+1 : end-1]
		return true
	}
	var v string // not dst: it would make every entry escape
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	*dst = v
	return true
}

// open consumes the '{' of an object.
func (s *lscan) open() bool {
	if s.ws(); s.i >= len(s.data) || s.data[s.i] != '{' {
		return false
	}
	s.i++
	return true
}

// member reads the next key of an object opened with open (first: no
// member read yet) and the colon after it, leaving the value next. end
// reports the object's closing brace instead; ok false, bad JSON.
func (s *lscan) member(first bool) (key []byte, end, ok bool) {
	if s.ws(); s.i >= len(s.data) {
		return nil, false, false
	}
	switch c := s.data[s.i]; {
	case c == '}':
		s.i++
		return nil, true, true
	case !first && c == ',':
		s.i++
		s.ws()
	case !first:
		return nil, false, false
	}
	end2, ok := jsontext.StringEnd(s.data, s.i)
	if !ok {
		return nil, false, false
	}
	key = s.data[s.i+1 : end2-1]
	if s.i = end2; s.ws() >= len(s.data) || s.data[s.i] != ':' {
		return nil, false, false
	}
	s.i++
	s.ws()
	return key, false, true
}

// skip consumes any one value, checked.
func (s *lscan) skip(depth int) bool {
	if depth > 1000 || s.ws() >= len(s.data) {
		return false
	}
	switch c := s.data[s.i]; {
	case c == '"':
		end, ok := jsontext.StringEnd(s.data, s.i)
		s.i = end
		return ok
	case c == '{':
		s.i++
		for first := true; ; first = false {
			_, end, ok := s.member(first)
			if !ok || end {
				return ok
			}
			if !s.skip(depth + 1) {
				return false
			}
		}
	case c == '[':
		s.i++
		if s.ws(); s.i < len(s.data) && s.data[s.i] == ']' {
			s.i++
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if s.ws(); s.i >= len(s.data) {
				return false
			}
			switch s.data[s.i] {
			case ',':
				s.i++
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == 't' || c == 'f':
		_, ok := s.boolean()
		return ok
	case c == 'n':
		return s.null()
	default:
		return s.number()
	}
}

// number consumes a number as JSON's grammar has it.
func (s *lscan) number() bool {
	end := jsontext.NumberEnd(s.data, s.i)
	if end < 0 {
		return false
	}
	s.i = end
	return true
}
