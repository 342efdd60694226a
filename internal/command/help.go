package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// HelpPage is the page of `agsh <tool> --help`
// (docs/rendering.md#help-for-one-tool). Everything but the curated shape
// comes from the tool's detail; info is asked (for the effect /v1/info
// declares) only when the detail declares no effect, and may return nil.
func HelpPage(cmd *Command, info func() *catalog.Info) render.HelpPage {
	page := helpPage(cmd)
	if cmd.Detail.Effect != "" || readOnlyDeclared(cmd.Detail) {
		return page
	}
	if in := info(); in != nil {
		for _, t := range in.Tools {
			if t.Name == cmd.Detail.Name && t.Effect != "" {
				page.Notes = append([]string{effectNote(t.Effect)}, page.Notes...)
				page.Notes = infoEffectGuard(page.Notes, t.Effect)
			}
		}
	}
	return page
}

// helpPage builds the help page data of a command from its detail.
func helpPage(cmd *Command) render.HelpPage {
	d := cmd.Detail
	p := render.HelpPage{Name: d.Name, Title: d.Title, Description: d.Description}
	over := cmd.Name != "" && cmd.Name != d.Name && cmd.Curated != nil
	if over {
		// A curated command over another tool: its own name (the title is
		// the tool's; the NOTES say which tool it calls).
		p.Name, p.Title = cmd.Name, ""
	}
	if cmd.Curated != nil && cmd.Curated.Bound {
		p.Synopsis = cmd.Curated.Synopsis()
		for _, o := range cmd.Curated.Operands {
			item := render.HelpItem{Term: "<" + o.Name + ">", Description: o.Description}
			if !o.Required {
				item.Term = "[" + o.Name + "]"
				if o.Default != "" {
					item.Facts = fmt.Sprintf("Default: %s.", o.Default)
				}
			}
			p.Operands = append(p.Operands, item)
		}
	} else {
		p.Synopsis = d.Name
		if len(cmd.Flags.Flags) > 0 {
			p.Synopsis += " [options...]"
		}
	}
	for _, f := range cmd.Flags.Flags {
		p.Options = append(p.Options, OptionItem(f))
	}
	for _, sh := range cmd.Curated.Shorthands() {
		p.Options = append(p.Options, render.HelpItem{Term: sh.Term, Description: sh.Description})
	}
	switch {
	case d.Effect != "":
		p.Notes = append(p.Notes, effectNote(string(d.Effect)))
	case readOnlyHint(d):
		p.Notes = append(p.Notes, effectNote("read"))
	case readOnlyDeclared(d):
		p.Notes = append(p.Notes, "Not read-only (readOnlyHint: false).")
	}
	if a := d.Annotations; a != nil {
		idem := a.IdempotentHint
		if idem != nil && !*idem && readOnlyHint(d) {
			// Meaningful only for a tool that writes (MCP), and the Go SDK's
			// servers write false for every annotated tool.
			idem = nil
		}
		p.Notes = append(p.Notes, render.AnnotationNotes(a.DestructiveHint, idem, a.OpenWorldHint)...)
	}
	if d.NeedsApproval {
		p.Notes = append(p.Notes, "Requires approval when the model calls it.")
	}
	if n := guardNote(d); n != "" {
		p.Notes = append(p.Notes, n)
	}
	if out := OutputNote(d.OutputSchema); out != "" {
		p.Notes = append(p.Notes, out)
	}
	if d.Execution == "agent" {
		p.Notes = append(p.Notes, "Runs in the agent; it cannot be called from agsh.")
	}
	if cmd.Curated != nil {
		if n := cmd.Curated.Note(); n != "" {
			p.Notes = append(p.Notes, n)
		}
	}
	if cmd.Flags.FreeForm {
		p.Notes = append(p.Notes, "Its input is a free-form object, which agsh cannot fill from flags: it is called with {}.")
	}
	if over {
		p.Notes = append(p.Notes, fmt.Sprintf("Calls the deployment's %s tool.", d.Name))
	}
	return p
}

// infoEffectGuard words the write guard's note for an effect that only
// /v1/info declares: a read needs no note; another effect is one the guard
// does not read (it reads the tool's detail), which the note says.
func infoEffectGuard(notes []string, effect string) []string {
	for i, n := range notes {
		if n != noEffectNote {
			continue
		}
		if effect == "read" {
			return append(notes[:i:i], notes[i+1:]...)
		}
		notes[i] = "agsh does not ask before calling it: its detail declares no effect (only /v1/info does)."
	}
	return notes
}

// readOnlyHint: an MCP tool annotated readOnlyHint: true counts as effect
// read (docs/wire.md#the-tool-detail).
func readOnlyHint(d *catalog.ToolDetail) bool {
	return d.Annotations != nil && d.Annotations.ReadOnlyHint != nil && *d.Annotations.ReadOnlyHint
}

// readOnlyDeclared: the tool's MCP annotations state readOnlyHint, true or
// false; help states either (false as "Effect: write (readOnlyHint:
// false).").
func readOnlyDeclared(d *catalog.ToolDetail) bool {
	return d.Annotations != nil && d.Annotations.ReadOnlyHint != nil
}

func effectNote(effect string) string {
	if effect == "read" {
		return "Effect: read (performs no writes)."
	}
	return fmt.Sprintf("Effect: %s.", effect)
}

// OptionItem is one OPTIONS entry.
func OptionItem(f *generated.Flag) render.HelpItem {
	term := f.Name
	if f.Placeholder != "" {
		term += " " + f.Placeholder
	}
	if f.Repeatable {
		term += "..."
	}
	item := render.HelpItem{Term: term, Description: f.Description, Shape: f.Shape}
	if f.Renamed {
		item.Property = f.Property()
	}
	var cs []render.Constraint
	for _, c := range f.Constraints {
		cs = append(cs, render.Constraint{Keyword: c.Keyword, Value: c.Value})
	}
	item.Facts = render.FactsLineTitled(f.Required && !f.Boolean(), f.Default, f.Enum, f.EnumTitles, f.Format, cs...)
	if f.Required && f.Boolean() {
		// A required valueless flag: say how to send false.
		req := fmt.Sprintf("Required: %s sends true, %s=false sends false.", f.Name, f.Name)
		item.Facts = strings.TrimSpace(req + " " + item.Facts)
	}
	return item
}

// EnumText shows a string enum value bare and anything else as JSON.
func EnumText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// OutputNote is "Output: {field: type, …}." one level deep; for an array of
// objects "Output: [{field: type, …}]."; otherwise the declared type.
func OutputNote(schema json.RawMessage) string {
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		return ""
	}
	var s struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Items      json.RawMessage `json:"items"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return ""
	}
	if fields := schemaFields(s.Properties); fields != "" {
		return fmt.Sprintf("Output: {%s}.", fields)
	}
	if typeText(s.Type) == "array" && len(s.Items) > 0 {
		var items struct {
			Properties json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(s.Items, &items) == nil {
			if fields := schemaFields(items.Properties); fields != "" {
				return fmt.Sprintf("Output: [{%s}].", fields)
			}
		}
	}
	return fmt.Sprintf("Output: %s.", typeText(s.Type))
}

// schemaFields lists "name: type" of a properties object in document order.
func schemaFields(props json.RawMessage) string {
	if len(props) == 0 {
		return ""
	}
	var fields []string
	dec := json.NewDecoder(bytes.NewReader(props))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		var p struct {
			Type any `json:"type"`
		}
		json.Unmarshal(raw, &p)
		fields = append(fields, fmt.Sprintf("%v: %s", t, typeText(p.Type)))
	}
	return strings.Join(fields, ", ")
}

func typeText(t any) string {
	switch v := t.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, fmt.Sprint(x))
		}
		return strings.Join(parts, "|")
	}
	return "any"
}

// HelpJSON is a tool's help as JSON: the page and its flags.
func HelpJSON(cmd *Command, page render.HelpPage) any {
	type flagJSON struct {
		Flag        string            `json:"flag"`
		Property    string            `json:"property"`
		Type        string            `json:"type"`
		Required    bool              `json:"required,omitempty"`
		Repeatable  bool              `json:"repeatable,omitempty"`
		Default     json.RawMessage   `json:"default,omitempty"`
		Enum        []json.RawMessage `json:"enum,omitempty"`
		Description string            `json:"description,omitempty"`
	}
	out := struct {
		Name        string     `json:"name"`
		Title       string     `json:"title,omitempty"`
		Synopsis    string     `json:"synopsis"`
		Description string     `json:"description,omitempty"`
		Operands    []string   `json:"operands,omitempty"`
		Flags       []flagJSON `json:"flags"`
		Notes       []string   `json:"notes,omitempty"`
	}{Name: page.Name, Title: page.Title, Synopsis: page.Synopsis, Description: page.Description, Notes: page.Notes, Flags: []flagJSON{}}
	for _, o := range page.Operands {
		out.Operands = append(out.Operands, o.Term)
	}
	for _, f := range cmd.Flags.Flags {
		out.Flags = append(out.Flags, flagJSON{f.Name, f.Property(), f.Type, f.Required, f.Repeatable, f.Default, f.Enum, f.Description})
	}
	return out
}
