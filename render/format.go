package render

import (
	"io"
	"slices"
	"strings"
)

// Format is how a command line's output is written (--output): the text
// views for people, or a data format that writes values as data. It is
// chosen once per command line, by name, from the one table of formats
// (Formats); code that writes output asks the Format, never its name.
// See docs/rendering.md#output-formats.
type Format struct {
	// Name is the --output value that selects it.
	Name string
	// Data writes values as data; nil for the text views.
	Data DataEncoder
}

// DataEncoder writes the values a command prints in one data format.
type DataEncoder interface {
	// Value writes a command's value: structured values as received
	// (numbers exact), text as a string.
	Value(w io.Writer, v Value) error
	// Document writes a document of agsh's own (a help page, the index,
	// the version), a Go value that encodes to JSON.
	Document(w io.Writer, doc any) error
	// Line writes doc on one line: the error line on standard error.
	Line(w io.Writer, doc any) error
	// TextSink is where a text result is written while it arrives, as one
	// string value of the format; nil when the format needs the whole value.
	TextSink(w io.Writer) TextSink
	// Records is where JSON texts received from the deployment (a
	// session's events) are written as they arrive: one value holding them
	// all (:trace), or with lines one value a line, without end (:tail).
	// ValueRecords writes them through Value.
	Records(w io.Writer, lines bool) RecordSink
}

// IsData reports a data format (JSON), as opposed to the text views.
func (f Format) IsData() bool { return f.Data != nil }

// IsZero reports the zero Format (no format chosen).
func (f Format) IsZero() bool { return f.Name == "" }

// Text is the text views (the default); JSON writes values as JSON.
var (
	Text = Format{Name: "text"}
	JSON = Format{Name: "json", Data: jsonEncoder{}}
)

// formats is the one table of output formats, in the order help lists them.
var formats = []Format{Text, JSON}

// Formats are the output formats, in the order help lists them.
func Formats() []Format { return slices.Clone(formats) }

// FormatNames are the formats' names, for help and completion.
func FormatNames() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}

// FormatPlaceholder is the --output value placeholder: "<text|json>".
func FormatPlaceholder() string { return "<" + strings.Join(FormatNames(), "|") + ">" }

// LookupFormat returns the format named name.
func LookupFormat(name string) (Format, bool) {
	i := slices.IndexFunc(formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return formats[i], true
}

// RegisterFormat adds a format to the table, or replaces the one of its
// name; for tests and extensions (a format is one row and one encoder).
func RegisterFormat(f Format) {
	if i := slices.IndexFunc(formats, func(g Format) bool { return g.Name == f.Name }); i >= 0 {
		formats[i] = f
		return
	}
	formats = append(formats, f)
}

// UnregisterFormat takes a format out of the table (tests).
func UnregisterFormat(name string) {
	formats = slices.DeleteFunc(formats, func(f Format) bool { return f.Name == name })
}

// jsonEncoder is the JSON format: values indented two spaces, numbers as
// received, control characters escaped by construction.
type jsonEncoder struct{}

func (jsonEncoder) Value(w io.Writer, v Value) error    { return WriteJSON(w, v) }
func (jsonEncoder) Document(w io.Writer, doc any) error { return EncodeJSON(w, doc, true) }
func (jsonEncoder) Line(w io.Writer, doc any) error     { return EncodeJSON(w, doc, false) }
func (jsonEncoder) TextSink(w io.Writer) TextSink       { return JSONStringSink(w) }
func (jsonEncoder) Records(w io.Writer, lines bool) RecordSink {
	return jsonRecords(w, lines)
}
