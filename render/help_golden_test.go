package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func helpOut(t *testing.T, p HelpPage, o Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHelp(&b, p, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestGoldenIndex(t *testing.T) {
	page := IndexPage{
		Name:        "change-monitor-executor",
		Description: "Executes monitoring plans against changed code. Plans come from the **planner** agent.",
		Commands: []IndexRow{
			{"read", "Read a file"}, {"ls", "List a directory"}, {"diff", "Show workspace changes"},
			{"glob", "Find files by pattern"}, {"grep", "Search file contents"}, {"report_change_issue", ""},
		},
		Groups: []IndexGroup{
			{Name: "github", Rows: []IndexRow{
				{"github_search_code", "Search code across every repository the installation can see, including archived ones and forks, ordered by relevance"},
				{"github_create_issue", "Create an issue"},
			}},
			{Name: "datadog", Rows: []IndexRow{{"datadog_mute_monitor", "Mute a monitor"}, {"datadog_list_monitors", "List monitors"}}},
		},
	}
	bothColors(t, "help_index", func(o Options) string {
		var b bytes.Buffer
		if err := WriteIndex(&b, page, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}, structure{width: 80, sections: []string{"NAME", "DESCRIPTION", "COMMANDS", "DATADOG", "GITHUB"}})

	var b bytes.Buffer
	if err := WriteIndex(&b, page, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"COMMANDS\n    diff                     Show workspace changes\n    glob ",
		"    report_change_issue\n\nDATADOG\n    datadog_list_monitors    List monitors\n",
		"\n\nRun any command with --help for its synopsis and options.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %q", want)
		}
	}
}

func TestIndexWithoutDescription(t *testing.T) {
	var b bytes.Buffer
	err := WriteIndex(&b, IndexPage{Name: "agent", Commands: []IndexRow{{"b", "B"}, {"a", ""}}}, Options{Width: 40})
	if err != nil {
		t.Fatal(err)
	}
	want := "NAME\n    agent\n\nCOMMANDS\n    a\n    b    B\n\nRun any command with --help for its synopsis and options.\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestGoldenHelpCurated(t *testing.T) {
	page := HelpPage{
		Name: "read", Title: "Read a file", Synopsis: "read [options...] <path>",
		Description: "Reads a file from the local filesystem. This tool can also read image files when called with the appropriate path. Formats supported: jpeg/jpg, png, gif, webp.",
		Operands:    []HelpItem{{Term: "<path>", Description: "The absolute path of the file to read."}},
		Options: []HelpItem{
			{Term: "--offset <integer>", Description: "The line number to start reading from. Positive values are 1-indexed from the start of the file. Negative values count backwards from the end. Only provide if the file is too large to read at once."},
			{Term: "--limit <integer>", Description: "The number of lines to read. Only provide if the file is too large to read at once."},
		},
		Notes: []string{"Effect: read (performs no writes)."},
	}
	bothColors(t, "help_curated", func(o Options) string { return helpOut(t, page, o) },
		structure{width: 80, sections: []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPERANDS", "OPTIONS", "NOTES"}})

	got := helpOut(t, page, Options{Width: 80})
	want := `NAME
    read - Read a file

SYNOPSIS
    read [options...] <path>

DESCRIPTION
    Reads a file from the local filesystem. This tool can also read image files
    when called with the appropriate path. Formats supported: jpeg/jpg, png,
    gif, webp.

OPERANDS
    <path>
        The absolute path of the file to read.

OPTIONS
    --offset <integer>
        The line number to start reading from. Positive values are 1-indexed
        from the start of the file. Negative values count backwards from the
        end. Only provide if the file is too large to read at once.

    --limit <integer>
        The number of lines to read. Only provide if the file is too large to
        read at once.

NOTES
    Effect: read (performs no writes).
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGoldenHelpGenerated(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	page := HelpPage{
		Name: "widgets_create_widget", Synopsis: "widgets_create_widget [options...]",
		Description: "Create a widget in a *project*. Use `--dry-run` to validate without saving.",
		Options: []HelpItem{
			{Term: "--name <string>", Description: "Display name of the widget.", Facts: FactsLine(true, nil, nil, "")},
			{Term: "--size <integer>", Description: "Size in pixels.", Facts: FactsLine(false, raw(`10`), nil, "")},
			{Term: "--kind <small|medium|large|extra-large|gigantic|colossal|astronomical|cosmic>", Description: "The kind of widget.",
				Facts: FactsLine(false, raw(`"small"`), []json.RawMessage{raw(`"small"`), raw(`"medium"`), raw(`"large"`), raw(`"extra-large"`), raw(`"gigantic"`), raw(`"colossal"`), raw(`"astronomical"`), raw(`"cosmic"`)}, "")},
			{Term: "--tags <string>...", Description: "Labels; repeat the flag for several."},
			{Term: "--owner.login <string>", Description: "Login of the owner."},
			{Term: "--owner.team.id <integer>", Description: ""},
			{Term: "--config <json>", Description: "Free-form configuration object:\n- `retries`: how often to retry\n- `timeout`: seconds"},
			{Term: "--output-2 <string>", Property: "output", Description: "Where the widget writes its report.", Facts: FactsLine(false, nil, nil, "uri")},
			{Term: "--dry-run", Description: "Validate only."},
			{Term: "--created-after <string>", Facts: FactsLine(false, nil, nil, "date-time")},
		},
		Notes: []string{"Effect: write.", "Requires approval when the model calls it.", "Output: {id: string, url: string, size: integer}"},
	}
	bothColors(t, "help_generated", func(o Options) string { return helpOut(t, page, o) },
		structure{width: 80, sections: []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "NOTES"}})

	got := helpOut(t, page, Options{Width: 80})
	for _, want := range []string{
		"    --output-2 <string> (property \"output\")\n        Where the widget writes its report.\n        Format: uri.\n",
		"    --size <integer>\n        Size in pixels.\n        Default: 10.\n",
		"    --name <string>\n        Display name of the widget.\n        Required.\n",
		"    --owner.team.id <integer>\n\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	colored := helpOut(t, page, Options{Width: 80, Color: true})
	if !strings.Contains(colored, "\x1b[1mOPTIONS\x1b[0m\n    \x1b[36m--name\x1b[0m <string>\n") {
		t.Errorf("flags or section names not highlighted:\n%q", colored)
	}
}

func TestGoldenHelpEmpty(t *testing.T) {
	page := HelpPage{Name: "ping", Synopsis: "ping"}
	bothColors(t, "help_empty", func(o Options) string { return helpOut(t, page, o) },
		structure{width: 80, sections: []string{"NAME", "SYNOPSIS"}})
	if got := helpOut(t, page, Options{}); got != "NAME\n    ping\n\nSYNOPSIS\n    ping\n" {
		t.Errorf("got %q", got)
	}
}

// markdownFixture is a long synthetic description full of what real tool
// descriptions carry: XML-like tags, headings, code fences with long lines,
// a table, lists, inline HTML, a control character and a long URL.
const markdownFixture = `Manage the **inventory** of a _warehouse_. Pass <path to file> or a <uid>; both are plain text.

<usage>
Call this tool when the operator asks about stock levels. Never guess a <sku>.
</usage>

# Operations

## Listing

- ` + "`list`" + `: every item, newest first, with <b>bold</b> and <kbd>Ctrl</kbd>+<kbd>C</kbd>
- ` + "`get`" + `: one item by id; fails with <code>not_found</code> when it is gone
  and this continuation line is long enough that it has to wrap somewhere around here
- nested:
  - deeper item

1. first step
2. second step

### Example

` + "```json" + `
{"op": "list", "filter": {"warehouse": "north-east-distribution-center-number-0042", "limit": 100}}
` + "```" + `

| Field | Type | Meaning |
|-------|------|---------|
| sku | string | Stock keeping unit, unique per <warehouse> |
| qty | integer | Units on hand |

<examples>
<example>
inventory --op list
</example>
</examples>

<!-- internal: do not show -->

> Quoted advice: keep <tags> literal.

See https://example.com/a/very/long/url/that/does/not/fit/on/one/line/of/eighty/columns/at/all/really for details. Bell: ` + "\a" + `.
`

func TestGoldenHelpMarkdown(t *testing.T) {
	page := HelpPage{Name: "inventory", Title: "Manage inventory", Synopsis: "inventory [options...]", Description: markdownFixture,
		Options: []HelpItem{{Term: "--op <list|get>", Description: "Operation.", Facts: "Required."}}}
	bothColors(t, "help_markdown", func(o Options) string { return helpOut(t, page, o) },
		structure{width: 80, sections: []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"}})

	got := helpOut(t, page, Options{Width: 80})
	for _, want := range []string{"<path to file>", "<uid>", "<usage>", "</usage>", "<sku>", "<examples>", "<warehouse>",
		"<tags>", "<!-- internal", "# Operations", "Ctrl+C", `\x07`, "not_found",
		// No word is broken across lines, not even one wider than the line.
		"https://example.com/a/very/long/url/that/does/not/fit/on/one/line/of/eighty/columns/at/all/really",
		`"north-east-distribution-center-number-0042"`} {
		if !strings.Contains(got, want) {
			t.Errorf("description lacks %q", want)
		}
	}
	for _, bad := range []string{"<b>", "<kbd>", "<code>"} {
		if strings.Contains(got, bad) {
			t.Errorf("allowed inline tag %q printed literally", bad)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if l != "" && !strings.HasPrefix(l, "    ") && l != strings.ToUpper(l) {
			t.Errorf("line not indented four spaces: %q", l)
		}
	}
}

func TestHelpNarrowAndWide(t *testing.T) {
	page := HelpPage{Name: "inventory", Synopsis: "inventory [options...] <a-rather-long-operand-name>", Description: markdownFixture,
		Options: []HelpItem{{Term: "--op <list|get|put|delete|move|copy|archive|restore>", Description: strings.Repeat("word ", 40)}}}
	for _, width := range []int{30, 60, 100, 200} {
		out := helpOut(t, page, Options{Width: width, Color: width == 60})
		limit := min(width, 100)
		checkStructure(t, out, structure{width: limit, color: width == 60, sections: []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"}})
	}
}

func TestIndexLongName(t *testing.T) {
	long := strings.Repeat("n", 70)
	var b bytes.Buffer
	err := WriteIndex(&b, IndexPage{Name: "a", Commands: []IndexRow{{"ls", "List files"}, {long, "Long one"}, {strings.Repeat("m", 120), "Cut"}}}, Options{Width: 80})
	if err != nil {
		t.Fatal(err)
	}
	// The name column is capped at 32 cells: longer names take their own
	// line, the title under it at the column (docs/rendering.md#agsh-help).
	want := "NAME\n    a\n\nCOMMANDS\n    ls" + spaces(30) + "List files\n    " + strings.Repeat("m", 75) + "…\n" + spaces(36) + "Cut\n    " + long + "\n" + spaces(36) + "Long one\n\nRun any command with --help for its synopsis and options.\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	checkStructure(t, b.String(), structure{width: 80})
}
