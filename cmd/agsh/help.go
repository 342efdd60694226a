package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// writeToolHelp prints `agsh <tool> --help` (render.md, "Help for one
// tool"). Everything but the curated shape comes from the tool's detail;
// /v1/info is asked only when the detail declares no effect.
func (a *app) writeToolHelp(ctx context.Context, w io.Writer, cmd *command, jsonOut bool) error {
	page := helpPage(cmd)
	if cmd.detail.Effect == "" && !readOnlyHint(cmd.detail) {
		if info, err := a.loadInfo(ctx); err == nil {
			for _, t := range info.Tools {
				if t.Name == cmd.detail.Name && t.Effect != "" {
					page.Notes = append([]string{effectNote(t.Effect)}, page.Notes...)
				}
			}
		}
	}
	if jsonOut {
		return writeHelpJSON(w, cmd, page)
	}
	return render.WriteHelp(w, page, a.outOpts())
}

// helpPage builds the help page data of a command.
func helpPage(cmd *command) render.HelpPage {
	d := cmd.detail
	p := render.HelpPage{Name: d.Name, Title: d.Title, Description: d.Description}
	if cmd.curated != nil && cmd.curated.Bound {
		p.Synopsis = cmd.curated.Synopsis()
		for _, o := range cmd.curated.Operands {
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
		if len(cmd.flags.Flags) > 0 {
			p.Synopsis += " [options...]"
		}
	}
	for _, f := range cmd.flags.Flags {
		p.Options = append(p.Options, optionItem(f))
	}
	if d.Effect != "" {
		p.Notes = append(p.Notes, effectNote(d.Effect))
	} else if readOnlyHint(d) {
		p.Notes = append(p.Notes, effectNote("read"))
	}
	if d.NeedsApproval {
		p.Notes = append(p.Notes, "Requires approval when the model calls it.")
	}
	if out := outputNote(d.OutputSchema); out != "" {
		p.Notes = append(p.Notes, out)
	}
	if d.Execution == "agent" {
		p.Notes = append(p.Notes, "Runs in the agent; it cannot be called from agsh.")
	}
	if cmd.curated != nil {
		if n := cmd.curated.Note(); n != "" {
			p.Notes = append(p.Notes, n)
		}
	}
	if cmd.flags.FreeForm {
		p.Notes = append(p.Notes, "Its input is a free-form object, which agsh cannot fill from flags: it is called with {}.")
	}
	return p
}

// readOnlyHint: an MCP tool annotated readOnlyHint: true counts as effect
// read (wire.md). false is no declaration: the Go SDK's servers write it for
// every annotated tool, so it says nothing about writes.
func readOnlyHint(d *catalog.ToolDetail) bool {
	return d.Annotations != nil && d.Annotations.ReadOnlyHint != nil && *d.Annotations.ReadOnlyHint
}

func effectNote(effect string) string {
	if effect == "read" {
		return "Effect: read (performs no writes)."
	}
	return fmt.Sprintf("Effect: %s.", effect)
}

// optionItem is one OPTIONS entry.
func optionItem(f *generated.Flag) render.HelpItem {
	term := f.Name
	if f.Placeholder != "" {
		term += " " + f.Placeholder
	}
	if f.Repeatable {
		term += "..."
	}
	item := render.HelpItem{Term: term, Description: f.Description}
	if f.Renamed {
		item.Property = f.Property()
	}
	var cs []render.Constraint
	for _, c := range f.Constraints {
		cs = append(cs, render.Constraint{Keyword: c.Keyword, Value: c.Value})
	}
	item.Facts = render.FactsLine(f.Required, f.Default, f.Enum, f.Format, cs...)
	return item
}

// enumText shows a string enum value bare and anything else as JSON.
func enumText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// outputNote is "Output: {field: type, …}." one level deep; for an array of
// objects "Output: [{field: type, …}]."; otherwise the declared type.
func outputNote(schema json.RawMessage) string {
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

// writeHelpJSON prints a tool's help as JSON: the detail and its flags.
func writeHelpJSON(w io.Writer, cmd *command, page render.HelpPage) error {
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
	for _, f := range cmd.flags.Flags {
		out.Flags = append(out.Flags, flagJSON{f.Name, f.Property(), f.Type, f.Required, f.Repeatable, f.Default, f.Enum, f.Description})
	}
	return encodeJSON(w, out, true)
}

// loadInfo fetches /v1/info once.
func (a *app) loadInfo(ctx context.Context) (*catalog.Info, error) {
	if a.info != nil {
		return a.info, nil
	}
	info, err := a.client.Info(ctx)
	a.noteReached(err)
	if err != nil {
		return nil, err
	}
	a.info = info
	return info, nil
}

// loadTools fetches the listing once, with the run's binding: unbound in
// parallel with the session lookup by default (wire.md).
func (a *app) loadTools(ctx context.Context) ([]catalog.ToolEntry, error) {
	if a.tools != nil {
		return a.tools, nil
	}
	var (
		tools []catalog.ToolEntry
		err   error
	)
	if a.bound {
		tools, err = a.client.Tools(ctx, a.binding)
	} else {
		tools, a.binding, err = a.client.ToolsBound(ctx, a.explicit)
		a.bound = err == nil
	}
	a.noteReached(err)
	if err != nil {
		return nil, err
	}
	if tools == nil {
		tools = []catalog.ToolEntry{}
	}
	a.tools = tools
	return tools, nil
}

// writeIndex prints `agsh help` (render.md, "agsh help").
func (a *app) writeIndex(ctx context.Context, w io.Writer, jsonOut bool) error {
	type infoResult struct {
		info *catalog.Info
		err  error
	}
	ch := make(chan infoResult, 1)
	go func() {
		info, err := a.client.Info(ctx)
		ch <- infoResult{info, err}
	}()
	tools, err := a.loadTools(ctx)
	r := <-ch
	if err != nil {
		return err
	}
	a.noteReached(r.err)
	if r.err != nil {
		return r.err
	}
	a.info = r.info
	page := render.IndexPage{Name: r.info.Name, Description: r.info.Description}
	groups := map[string]*render.IndexGroup{}
	type jsonTool struct {
		Name  string `json:"name"`
		Title string `json:"title"` // "" when none is declared: the shape of render.md
		Group string `json:"group"`
	}
	var jt []jsonTool
	for _, t := range tools {
		row := render.IndexRow{Name: t.Name, Title: t.Title}
		g := t.Source.Group()
		jt = append(jt, jsonTool{t.Name, t.Title, g})
		if g == "" {
			page.Commands = append(page.Commands, row)
			continue
		}
		if groups[g] == nil {
			groups[g] = &render.IndexGroup{Name: g}
		}
		groups[g].Rows = append(groups[g].Rows, row)
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		page.Groups = append(page.Groups, *groups[g])
	}
	if jsonOut {
		sort.SliceStable(jt, func(i, j int) bool {
			if (jt[i].Group == "") != (jt[j].Group == "") {
				return jt[i].Group == ""
			}
			if jt[i].Group != jt[j].Group {
				return jt[i].Group < jt[j].Group
			}
			return jt[i].Name < jt[j].Name
		})
		if jt == nil {
			jt = []jsonTool{}
		}
		return encodeJSON(w, struct {
			Name        string     `json:"name"`
			Description string     `json:"description"`
			Tools       []jsonTool `json:"tools"`
		}{r.info.Name, r.info.Description, jt}, true)
	}
	return render.WriteIndex(w, page, a.outOpts())
}
