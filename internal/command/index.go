package command

import (
	"slices"
	"sort"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/render"
)

// IndexPage is the data of `agsh help` (docs/rendering.md#agsh-help): the
// agent's commands, grouped by source, as a page and as the JSON document of
// --output json (built when asked for: with 10,000 tools, sorting it is not
// free).
//
// starting names the connections still starting (catalog.Run.Starting): each
// is a group headed "NAME (starting…)", and the document lists them.
func IndexPage(info *catalog.Info, tools []catalog.ToolEntry, starting ...string) (render.IndexPage, func() any) {
	page := render.IndexPage{Name: info.Name, Description: info.Description}
	groups := map[string]*render.IndexGroup{}
	tools = withCuratedOver(tools)
	for _, t := range tools {
		row := render.IndexRow{Name: t.Name, Title: t.Title}
		g := t.Source.Group()
		if g == "" {
			page.Commands = append(page.Commands, row)
			continue
		}
		if groups[g] == nil {
			groups[g] = &render.IndexGroup{Name: g}
		}
		groups[g].Rows = append(groups[g].Rows, row)
	}
	for _, c := range starting {
		if groups[c] == nil {
			groups[c] = &render.IndexGroup{Name: c}
		}
		groups[c].Starting = true
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		page.Groups = append(page.Groups, *groups[g])
	}
	return page, func() any { return indexDoc(info, tools, starting) }
}

// withCuratedOver are the catalog's tools and the curated commands over
// them (tree over ls: meaning 2 of the command table), each in the group of
// the tool it calls, titled by it.
func withCuratedOver(tools []catalog.ToolEntry) []catalog.ToolEntry {
	names, over := NewTable(tools).CuratedOver()
	if len(names) == 0 {
		return tools
	}
	out := slices.Clone(tools)
	for i, n := range names {
		out = append(out, catalog.ToolEntry{Name: n, Title: "calls " + over[i].Name, Source: over[i].Source})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// indexDoc is the JSON document of `agsh help --output json`.
func indexDoc(info *catalog.Info, tools []catalog.ToolEntry, starting []string) any {
	type jsonTool struct {
		Name  string `json:"name"`
		Title string `json:"title"` // "" when none is declared (docs/rendering.md#agsh-help)
		Group string `json:"group"`
	}
	jt := make([]jsonTool, 0, len(tools))
	for _, t := range tools {
		jt = append(jt, jsonTool{t.Name, t.Title, t.Source.Group()})
	}
	sort.SliceStable(jt, func(i, j int) bool {
		if (jt[i].Group == "") != (jt[j].Group == "") {
			return jt[i].Group == ""
		}
		if jt[i].Group != jt[j].Group {
			return jt[i].Group < jt[j].Group
		}
		return jt[i].Name < jt[j].Name
	})
	return struct {
		Name        string     `json:"name"`
		Description string     `json:"description"`
		Tools       []jsonTool `json:"tools"`
		Starting    []string   `json:"starting,omitempty"` // connections still starting
	}{info.Name, info.Description, jt, starting}
}

// GroupPage is the data of `agsh help <group>`: the tools of the catalog
// whose group is name (ignoring case), as a section of the index and as
// the JSON document of --output json; false when no tool has that group.
func GroupPage(tools []catalog.ToolEntry, name string) (render.IndexGroup, any, bool) {
	var g render.IndexGroup
	type jsonTool struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	}
	var jt []jsonTool
	for _, t := range tools {
		if tg := t.Source.Group(); tg != "" && strings.EqualFold(tg, name) {
			g.Name = tg
			g.Rows = append(g.Rows, render.IndexRow{Name: t.Name, Title: t.Title})
			jt = append(jt, jsonTool{t.Name, t.Title})
		}
	}
	if len(g.Rows) == 0 {
		return g, nil, false
	}
	sort.SliceStable(jt, func(i, j int) bool { return jt[i].Name < jt[j].Name })
	return g, struct {
		Group string     `json:"group"`
		Tools []jsonTool `json:"tools"`
	}{g.Name, jt}, true
}
