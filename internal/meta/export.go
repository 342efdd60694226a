package meta

import (
	"context"

	"github.com/agsh-dev/agsh/internal/console"
)

// :export (docs/console.md#export): its row is in consoleRows; the export
// itself is console.Export.

// runExport is :export.
func runExport(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaExport)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	as := a.values["--as"]
	switch {
	case as == "" && m.Format.IsData():
		as = console.ExportJSON
	case as == "":
		return MetaResult{}, Usagef("%s needs --as script, --as md or --as json\nusage: %s", MetaExport, me.synopsis())
	case m.Format.IsData() && as != console.ExportJSON:
		return MetaResult{}, Usagef("%s --as %s writes a %s; --output json is --as json: give one of them", MetaExport, as,
			map[string]string{console.ExportScript: "script", console.ExportMarkdown: "report"}[as])
	}
	ch, err := m.session(ctx, a.operand(0))
	if err != nil {
		return MetaResult{}, err
	}
	lookup := m.commands()
	e := m.consoleEnv(ctx)
	e.CallLine = m.callLineOf(lookup)
	e.Execution = func(ctx context.Context, tool string) string {
		if cmd := lookup(ctx, tool); cmd != nil && cmd.ToolDetail() != nil {
			return cmd.ToolDetail().Execution
		}
		return ""
	}
	o := console.ExportOptions{As: as, File: a.values["-o"]}
	if as != console.ExportJSON {
		if info, err := m.Client.Info(ctx); err == nil {
			o.Agent = info.Name
		}
	}
	err = console.Export(ctx, e, ch.ID, o)
	if o.File != "" {
		if _, left := err.(*console.LeftOutError); err == nil || left {
			m.note("wrote " + o.File)
		}
	}
	return MetaResult{Written: true}, err
}
