package compcache

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/catalog"
)

// The listing's file: a first line naming the format, then one line a
// tool, five fields separated by tabs: name, title, and the source's kind,
// connection and connector. In a field a backslash, a tab and a line break
// are written \\, \t and \n; nothing else is escaped. A Tab needs every
// name (a word may match inside any of them) but no reflection, no JSON
// and no allocation per field: the file is read as one string, and each
// field without an escape is cut from it. Anything else in the file (an
// older format, a line of another shape, a bad escape, bytes that are not
// UTF-8, a name or title out of its bound) and it is not read at all.

// listingHead is the listing file's first line.
const listingHead = "agsh completion listing 1\n"

// listingFields is the count of fields of a tool's line.
const listingFields = 5

// encodeListing writes tools in the listing's format, names past
// MaxNameBytes left out and titles cut to MaxTitleBytes; false past
// MaxListingBytes.
func encodeListing(tools []catalog.ToolEntry) ([]byte, bool) {
	size := len(listingHead)
	for _, t := range tools {
		if t.Name == "" || len(t.Name) > MaxNameBytes {
			continue
		}
		size += len(t.Name) + min(len(t.Title), MaxTitleBytes) + len(t.Source.Kind) + len(t.Source.Connection) + len(t.Source.Connector) + listingFields
	}
	if size > MaxListingBytes {
		return nil, false // escapes only add to it
	}
	data := make([]byte, 0, size)
	data = append(data, listingHead...)
	for _, t := range tools {
		if t.Name == "" || len(t.Name) > MaxNameBytes {
			continue
		}
		for i, f := range [listingFields]string{t.Name, cut(t.Title, MaxTitleBytes), t.Source.Kind, t.Source.Connection, t.Source.Connector} {
			if i > 0 {
				data = append(data, '\t')
			}
			data = appendField(data, f)
		}
		data = append(data, '\n')
	}
	return data, len(data) <= MaxListingBytes
}

// appendField appends f with its backslashes, tabs and line breaks
// escaped.
func appendField(data []byte, f string) []byte {
	if !strings.ContainsAny(f, "\\\t\n") {
		return append(data, f...)
	}
	for i := 0; i < len(f); i++ {
		switch c := f[i]; c {
		case '\\':
			data = append(data, `\\`...)
		case '\t':
			data = append(data, `\t`...)
		case '\n':
			data = append(data, `\n`...)
		default:
			data = append(data, c)
		}
	}
	return data
}

// decodeListing reads a listing file; false for anything but one in the
// format encodeListing writes, of at most MaxTools tools.
func decodeListing(data []byte) ([]catalog.ToolEntry, bool) {
	if !bytes.HasPrefix(data, []byte(listingHead)) || !utf8.Valid(data) {
		return nil, false
	}
	rest := string(data[len(listingHead):]) // the one copy the fields are cut from
	n := strings.Count(rest, "\n")
	if n > MaxTools || rest != "" && rest[len(rest)-1] != '\n' {
		return nil, false
	}
	tools := make([]catalog.ToolEntry, n)
	for i := range tools {
		// (IndexByte, not Cut: a Tab does this 60,000 times.)
		eol := strings.IndexByte(rest, '\n')
		line := rest[:eol]
		rest = rest[eol+1:]
		escaped := strings.IndexByte(line, '\\') >= 0
		var f [listingFields]string
		for k := range f {
			end := strings.IndexByte(line, '\t')
			if (end >= 0) != (k < listingFields-1) {
				return nil, false // not five fields
			}
			if end < 0 {
				end = len(line)
			}
			f[k] = line[:end]
			line = line[min(end+1, len(line)):]
			if escaped {
				var ok bool
				if f[k], ok = unescapeField(f[k]); !ok {
					return nil, false
				}
			}
		}
		if f[0] == "" || len(f[0]) > MaxNameBytes || len(f[1]) > MaxTitleBytes {
			return nil, false // not what encodeListing keeps
		}
		tools[i] = catalog.ToolEntry{Name: f[0], Title: f[1], Source: catalog.Source{Kind: f[2], Connection: f[3], Connector: f[4]}}
	}
	return tools, true
}

// unescapeField reads a field back: itself when it has no backslash;
// false for an escape appendField does not write.
func unescapeField(f string) (string, bool) {
	i := strings.IndexByte(f, '\\')
	if i < 0 {
		return f, true
	}
	var b strings.Builder
	b.Grow(len(f))
	b.WriteString(f[:i])
	for ; i < len(f); i++ {
		c := f[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i++; i == len(f) {
			return "", false
		}
		switch f[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		default:
			return "", false
		}
	}
	return b.String(), true
}
