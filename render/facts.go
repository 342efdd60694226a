package render

import (
	"bytes"
	"encoding/json"
	"strings"
)

// FactsLine builds the facts line of an option in help
// (docs/rendering.md#help-for-one-tool): in order `Required.`,
// `Default: <json>.`, `One of: a, b, "c d".` (strings unquoted unless they
// hold a space, "|" or ",", other values as JSON) and `Format: <format>.`,
// each only when given, separated by one space. def is the schema default as
// raw JSON (nil or empty: none). Validation keywords the schema declares
// (shown, not enforced: docs/mapping.md#how-a-value-is-read) follow as
// `Minimum: 1.`, `Pattern: ^a+$.`, ….
func FactsLine(required bool, def json.RawMessage, enum []json.RawMessage, format string, constraints ...Constraint) string {
	return FactsLineTitled(required, def, enum, nil, format, constraints...)
}

// FactsLineTitled is FactsLine with a title for each enum value (titles[i]
// for enum[i], "" or missing: none), shown after its value: `One of: 1
// (low), 2 (high).`, as a schema's oneOf of titled consts labels them.
func FactsLineTitled(required bool, def json.RawMessage, enum []json.RawMessage, titles []string, format string, constraints ...Constraint) string {
	var parts []string
	if required {
		parts = append(parts, "Required.")
	}
	if d := bytes.TrimSpace(def); len(d) > 0 {
		parts = append(parts, "Default: "+jsonText(d, false)+".")
	}
	if len(enum) > 0 {
		vals := make([]string, len(enum))
		for i, e := range enum {
			vals[i] = enumText(bytes.TrimSpace(e))
			if i < len(titles) && titles[i] != "" {
				vals[i] += " (" + titles[i] + ")"
			}
		}
		parts = append(parts, "One of: "+strings.Join(vals, ", ")+".")
	}
	if format != "" {
		parts = append(parts, "Format: "+format+".")
	}
	for _, c := range constraints {
		if v := bytes.TrimSpace(c.Value); len(v) > 0 {
			parts = append(parts, constraintLabel(c.Keyword)+": "+jsonText(v, true)+".")
		}
	}
	return strings.Join(parts, " ")
}

// jsonText is a value's compact JSON, or for a string its text when
// unquote is set (an empty string, one holding a comma or with spaces at
// an end stays quoted so the list can be read).
func jsonText(raw []byte, unquote bool) string {
	n, err := parseJSON(raw)
	if err != nil {
		return string(raw)
	}
	if unquote && n.Kind == kindString {
		if s := n.Str(); s != "" && !strings.Contains(s, ",") && strings.TrimSpace(s) == s {
			return s
		}
	}
	return compactString(n)
}

// enumText is an enum value in the facts line: a string bare unless that
// would blur the list (empty, or holding a space, "|" or ","): then quoted,
// as the placeholder shows it ("h:mm A"); anything else as compact JSON.
func enumText(raw []byte) string {
	n, err := parseJSON(raw)
	if err != nil {
		return string(raw)
	}
	if n.Kind == kindString {
		if s := n.Str(); s != "" && !strings.ContainsAny(s, " \t\n|,") {
			return s
		}
	}
	return compactString(n)
}

// Constraint is a validation keyword of a flag's schema ("minimum",
// "pattern", …) and its value as raw JSON.
type Constraint struct {
	Keyword string
	Value   json.RawMessage
}

// constraintLabel names a validation keyword in help: "maxLength" → "Max
// length", "exclusiveMinimum" → "Exclusive minimum".
func constraintLabel(k string) string {
	var b strings.Builder
	for i, r := range k {
		switch {
		case i == 0:
			b.WriteString(strings.ToUpper(string(r)))
		case r >= 'A' && r <= 'Z':
			b.WriteByte(' ')
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return strings.Replace(strings.Replace(b.String(), "Min ", "Min. ", 1), "Max ", "Max. ", 1)
}
