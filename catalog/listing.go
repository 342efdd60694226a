package catalog

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// The listing (GET /v1/tools) decoded without reflection: with 10,000
// tools, encoding/json spends most of `agsh help` in reflection and in
// Source's own decoding of each entry. decodeListing walks the answer's
// bytes with agsh's JSON reader (internal/jsontext: Members, Elements,
// ValueEnd, no tree) straight into a toolsAnswer. It decides only what it
// is sure encoding/json would decide the same way: any other shape (a key
// that differs only in case, an escaped key, a value of an unexpected type,
// a duplicate key, bytes after the answer) reports false, and the caller
// decodes the same bytes with encoding/json, which keeps every message and
// tolerance it has.

// listingDepth bounds the nesting of what the listing skips; deeper is
// left to encoding/json.
const listingDepth = 1000

// decodeListing decodes data into a (zeroed first); false leaves a zero.
func (a *toolsAnswer) decodeListing(data []byte) bool {
	*a = toolsAnswer{}
	str := string(data) // the entries' strings are cut from one copy
	end, ok := fields(data, 0, []string{"ok", "tools", "error", "message", fieldStarting}, func(k, i int) (int, bool) {
		switch k {
		case 0:
			return boolean(data, i, &a.OK)
		case 1:
			return toolEntries(data, str, i, &a.Tools)
		case 4:
			// Connections still starting: rare (a deployment coming up),
			// so left to encoding/json.
			return 0, false
		}
		end, ok := jsontext.ValueEnd(data, i, listingDepth)
		if ok && k == 2 {
			a.Error = json.RawMessage(bytes.Clone(data[i:end]))
		} else if ok {
			a.Message = json.RawMessage(bytes.Clone(data[i:end]))
		}
		return end, ok
	})
	if !ok || jsontext.SkipSpace(data, end) != len(data) {
		*a = toolsAnswer{}
		return false
	}
	return true
}

// toolEntries reads the "tools" array at data[i]; null leaves it nil, as
// encoding/json, and a null entry is a zero entry. str is data as a string
// (text).
func toolEntries(data []byte, str string, i int, out *[]ToolEntry) (int, bool) {
	if end, ok := null(data, i); ok {
		return end, true
	}
	// Every entry opens with '{' and takes 12 bytes at least ({"name":""},):
	// the count of one byte is a quick bound on the entries.
	rest := data[i:]
	tools := make([]ToolEntry, 0, min(bytes.Count(rest, []byte{'{'}), len(rest)/12+1))
	end, ok := jsontext.Elements(data, i, func(i int) (int, bool) {
		tools = append(tools, ToolEntry{})
		if end, ok := null(data, i); ok {
			return end, true
		}
		return toolEntry(data, str, i, &tools[len(tools)-1])
	})
	if ok {
		*out = tools
	}
	return end, ok
}

// toolEntry reads one entry object.
func toolEntry(data []byte, str string, i int, t *ToolEntry) (int, bool) {
	texts := [...]*string{&t.Name, &t.Title}
	return fields(data, i, []string{"name", "title", "source"}, func(k, i int) (int, bool) {
		if k < len(texts) {
			return text(data, str, i, texts[k])
		}
		return source(data, str, i, &t.Source)
	})
}

// source reads a Source as its UnmarshalJSON does: null is authored, a
// string names a connection, an object is read by its fields.
func source(data []byte, str string, i int, src *Source) (int, bool) {
	if end, ok := null(data, i); ok {
		*src = Source{Kind: "authored"}
		return end, true
	}
	if i < len(data) && data[i] == '"' {
		var name string
		end, ok := text(data, str, i, &name)
		if name == "" || name == "authored" {
			*src = Source{Kind: "authored"}
		} else {
			*src = Source{Kind: "connection", Connection: name}
		}
		return end, ok
	}
	var p Source
	texts := [...]*string{&p.Kind, &p.Connection, &p.Connector}
	end, ok := fields(data, i, []string{"kind", "connection", "connector"}, func(k, i int) (int, bool) {
		return text(data, str, i, texts[k])
	})
	if ok {
		p.DefaultKind()
		*src = p
	}
	return end, ok
}

// fields reads the object at data[i], calling set with the index in known
// of each known key and the offset of its value; another key's value is
// skipped (checked). A duplicate known key, or another key encoding/json
// might fold to a known one, refuses the object.
func fields(data []byte, i int, known []string, set func(k, i int) (int, bool)) (int, bool) {
	var seen [8]bool
	return jsontext.Members(data, i, func(key []byte, i int) (int, bool) {
		key = key[1 : len(key)-1]
		k := -1
		for j, name := range known {
			if string(key) == name {
				k = j
			}
		}
		switch {
		case k < 0 && foldsTo(key, known...):
			return 0, false
		case k < 0:
			return jsontext.ValueEnd(data, i, listingDepth)
		case seen[k]:
			return 0, false
		}
		seen[k] = true
		return set(k, i)
	})
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

// null reads a null at data[i].
func null(data []byte, i int) (int, bool) {
	if bytes.HasPrefix(data[i:], []byte("null")) {
		return i + 4, true
	}
	return 0, false
}

// boolean reads true or false; null leaves false.
func boolean(data []byte, i int, dst *bool) (int, bool) {
	switch {
	case bytes.HasPrefix(data[i:], []byte("true")):
		*dst = true
		return i + 4, true
	case bytes.HasPrefix(data[i:], []byte("false")):
		return i + 5, true
	}
	return null(data, i)
}

// text reads a string into *dst; null leaves it. Escapes and invalid
// UTF-8 are decoded as encoding/json does (the latter as U+FFFD). A string
// with neither is cut from str (data as a string), not allocated: 10,000
// tools have 30,000 of them.
func text(data []byte, str string, i int, dst *string) (int, bool) {
	if end, ok := null(data, i); ok {
		return end, true
	}
	end, ok := jsontext.StringEnd(data, i)
	if !ok {
		return 0, false
	}
	if inner := data[i+1 : end-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		*dst = str[i+1 : end-1]
	} else {
		*dst = jsontext.UnquoteValid(data[i:end])
	}
	return end, true
}
