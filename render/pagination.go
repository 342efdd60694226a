package render

import (
	"bytes"
	"strings"
)

// cursorKeys are the members that carry a next-page cursor next to the rows
// of a structured value.
var cursorKeys = [...]string{"nextCursor", "next_cursor", "nextPageToken", "next_page_token"}

// NextCursor returns the next-page cursor a result carries
// (docs/rendering.md#next-page-hints): the MCP result's _meta.nextCursor,
// else a nextCursor, next_cursor or nextPageToken member of a structured
// value (an object) that also holds an array (the rows). A number is returned
// as its JSON text. "" when there is none. The cursor never changes the
// value.
func NextCursor(v Value) string {
	if len(v.Result) > 0 && bytes.Contains(v.Result, []byte(`"_meta"`)) {
		if n, err := parseJSON(v.Result); err == nil {
			if c := cursorText(n.Field("_meta").Field("nextCursor")); c != "" {
				return c
			}
		}
	}
	if !v.IsJSON || v.Final || !startsObject(v.JSON) || !mentionsCursor(v.JSON) {
		return ""
	}
	n, err := parseJSON(v.JSON)
	if err != nil || n.Kind != kindObject {
		return ""
	}
	if isMCPResult(n) {
		// An MCP result kept whole: its _meta (when Result was not set).
		return cursorText(n.Field("_meta").Field("nextCursor"))
	}
	rows := false
	for _, x := range n.Vals {
		if x.Kind == kindArray {
			rows = true
		}
	}
	if !rows {
		return ""
	}
	for _, k := range cursorKeys {
		if c := cursorText(n.Field(k)); c != "" {
			return c
		}
	}
	return ""
}

// mentionsCursor is a cheap look before decoding a (maybe large) value.
func mentionsCursor(b []byte) bool {
	for _, k := range cursorKeys {
		if bytes.Contains(b, []byte(k)) {
			return true
		}
	}
	return false
}

// cursorText is a cursor's text: a non-empty string, or a number's JSON.
func cursorText(n *node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case kindString:
		return n.Str()
	case kindNumber:
		return string(n.Raw)
	}
	return ""
}

// NextPageLine is the standard-error line announcing a next page: with the
// command for it when a flag of the tool takes the cursor (command is the
// tool name and its words, the cursor flag and value included), else the
// cursor itself. Words are quoted for a shell when they need it.
//
//	next page: datadog_list_monitors --status Alert --page-cursor 4102279
//	next page cursor: 4102279
func NextPageLine(cursor string, command []string) string {
	if len(command) == 0 {
		return "next page cursor: " + ShellQuote(cursor)
	}
	words := make([]string, len(command))
	for i, w := range command {
		words[i] = ShellQuote(w)
	}
	return "next page: " + strings.Join(words, " ")
}

// ShellQuote quotes a word for a POSIX shell (and agsh's) when it holds
// anything but letters, digits and @%+=:,./_- ; an empty word becomes a pair of single quotes.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("@%+=:,./_-", r):
		default:
			plain = false
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
