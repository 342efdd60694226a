package command

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

func TestSplitGlobals(t *testing.T) {
	cases := []struct {
		args       string
		rest, vals string
		help       bool
		err        string
	}{
		{args: "ls /repo --target u --output=json", rest: "ls /repo", vals: "--output=json --target=u"},
		{args: "--session s read -- --target x", rest: "read -- --target x", vals: "--session=s"},
		{args: "-h", vals: "--help=true", help: true},
		{args: "read --help=x", rest: "read --help=x"},
		{args: "ls --team", err: "--team needs a value"},
		{args: "ls --output xml", err: "--output must be " + strings.Join(render.FormatNames(), " or ") + `, not "xml"`},
	}
	for _, tc := range cases {
		g, rest, err := SplitGlobals(strings.Fields(tc.args))
		if tc.err != "" || err != nil {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SplitGlobals(%q) error = %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		var vals []string
		for _, o := range []string{"--bearer-token", "--continuation-token", "--help", "--output", "--session", "--target", "--team"} {
			if v, ok := g.Values[o]; ok {
				vals = append(vals, o+"="+v)
			}
		}
		if strings.Join(rest, " ") != tc.rest || strings.Join(vals, " ") != tc.vals || g.Help != tc.help {
			t.Errorf("SplitGlobals(%q) = %q %q help %v", tc.args, rest, vals, g.Help)
		}
	}
}

func TestOutputWords(t *testing.T) {
	args := []string{"a", "--output", "json", "b", "--output=text", "--", "--output", "x"}
	l := ScanWords(args)
	v, ok := l.Output()
	if rest := l.Args; v != "text" || !ok || strings.Join(rest, " ") != "a b -- --output x" {
		t.Errorf("ScanWords = %q %v %q", v, ok, rest)
	}
	l = ScanWords([]string{"x", "--output"})
	if v, ok := l.Output(); v != "" || ok || len(l.Args) != 2 {
		t.Errorf("ScanWords(x --output) = %q %v %q: the word without a value stays", v, ok, l.Args)
	}
	for _, tc := range []struct {
		words          string
		runText, wants bool
		err            bool
	}{{"--output json", true, true, false}, {"--output text", false, false, false}, {"", false, true, false}, {"", true, false, false},
		{"--output xml", false, false, true}, {"--output xml --output json", true, true, true}, {"--output json --output=", true, false, true}} {
		run := render.Text
		if !tc.runText {
			run = render.JSON
		}
		got, err := ScanWords(strings.Fields(tc.words)).Format(run)
		if got.IsData() != tc.wants || (err != nil) != tc.err {
			t.Errorf("Format(%q) under %v = %v, %v", tc.words, run.Name, got.Name, err)
		}
	}
	// The one rule: the same answer for the launch's options, a tool line's
	// and a help line's.
	if f, err := FormatOf(render.JSON); f.Name != "json" || err != nil {
		t.Errorf("FormatOf(json) = %v %v", f.Name, err)
	}
	if HelpOutput([]generated.Global{{Name: "--output", Value: "xml"}, {Name: "--output", Value: "json"}}, render.Text).Name != "json" {
		t.Error("help's last good --output does not win")
	}
	if _, err := LineOutput([]generated.Global{{Name: "--output", Value: "xml"}}, render.Text, false); err == nil ||
		err.Error() != "--output must be "+strings.Join(render.FormatNames(), " or ")+`, not "xml"` {
		t.Errorf("LineOutput(xml) = %v", err)
	}
	for in, want := range map[string]string{
		"/a --output json": "--output text /a",
		"/a --help":        "/a --help",
		"/a --output xml":  "/a --output xml",
		"-- -h":            "--output text -- -h",
	} {
		if got := strings.Join(ScanWords(strings.Fields(in)).ValueArgs(), " "); got != want {
			t.Errorf("ValueArgs(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := FormatOf(render.Text, "xml"); err == nil || !IsLaunchOnly("--session") || IsLaunchOnly("--output") {
		t.Error("Output accepts xml, or the launch-only scope is wrong")
	}
}

// TestResolve: one answer for every place that asks what a name means.
func TestResolve(t *testing.T) {
	authored := catalog.Source{Kind: "authored"}
	table := NewTable([]catalog.ToolEntry{
		{Name: "read", Source: authored}, {Name: "grep", Source: catalog.Source{Kind: "mcp"}}, {Name: "datadog_list_monitors"},
		{Name: "datadog_mute_monitor"}, {Name: "datadog_get_monitor"},
	})
	cases := []struct {
		name string
		kind Kind
		sugg string
	}{
		{"read", Curated, ""},
		{"grep", Tool, ""}, // not authored: a generated command, and it wins over the filter
		{"head", Filter, ""},
		{"exit", Word, ""},
		{":nosuchword", Unknown, ""},
		{"raed", Unknown, "read"},
		{"datadog_foo", Unknown, "datadog_get_monitor datadog_list_monitors datadog_mute_monitor"},
	}
	for _, tc := range cases {
		r := table.Resolve(tc.name)
		if r.Kind != tc.kind || strings.Join(r.Suggestions, " ") != tc.sugg {
			t.Errorf("Resolve(%q) = %v %q, want %v %q", tc.name, r.Kind, r.Suggestions, tc.kind, tc.sugg)
		}
		// Lookup is the same without the suggestions.
		if l := table.Lookup(tc.name); l.Kind != r.Kind || l.Tool != r.Tool || l.Suggestions != nil {
			t.Errorf("Lookup(%q) = %+v, Resolve %+v", tc.name, l, r)
		}
	}
}

// TestUnknownToolSuggestsAsTheShell: one-shot suggests what the shell does
// for a name of the deployment's 404 unknown_tool answer.
func TestUnknownToolSuggestsAsTheShell(t *testing.T) {
	err := UnknownTool("datadog_foo", &catalog.Error{ErrCode: catalog.CodeUnknownTool, Status: 404, Remote: true,
		Available: []string{"read", "datadog_list_monitors", "datadog_mute_monitor", "datadog_get_monitor"}})
	want := "unknown command \"datadog_foo\"; did you mean datadog_get_monitor, datadog_list_monitors or datadog_mute_monitor?\n" +
		"Run 'agsh help' for the commands of this deployment."
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err.Error(), want)
	}
	other := errors.New("x")
	if UnknownTool("a", other) != other {
		t.Error("another error is not returned as is")
	}
}

// TestREADMEOptionTable: the README's table of options is the table's.
func TestREADMEOptionTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, o := range Options() {
		if o.Name == "--help" {
			continue
		}
		env := "—"
		if o.Env != "" {
			env = "`" + o.Env + "`"
		}
		spelling := strings.ReplaceAll(strings.TrimSpace(o.Name+" "+o.Placeholder), "|", `\|`)
		row := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta("`"+spelling+"`") + ` \| ` + regexp.QuoteMeta(env) + ` \| `)
		if !row.MatchString(readme) {
			t.Errorf("README.md has no row for %s (environment %s)", spelling, env)
		}
	}
}

// TestAlias: an alias resolves to its tool where the catalog has it, and a
// tool of the alias's own name wins.
func TestAlias(t *testing.T) {
	aliases["cat"] = "read"
	defer delete(aliases, "cat")
	table := NewTable([]catalog.ToolEntry{{Name: "read"}})
	if r := table.Resolve("cat"); r.Kind != Curated || r.Tool.Name != "read" || table.ToolName("cat") != "read" {
		t.Errorf("Resolve(cat) = %+v, ToolName %q", r, table.ToolName("cat"))
	}
	if s := table.Resolve("cta").Suggestions; strings.Join(s, " ") != "cat" {
		t.Errorf("suggestions for cta: %q", s)
	}
	own := NewTable([]catalog.ToolEntry{{Name: "read"}, {Name: "cat", Source: catalog.Source{Kind: "mcp"}}})
	if r := own.Resolve("cat"); r.Kind != Tool || r.Tool.Name != "cat" {
		t.Errorf("a tool named cat: %+v", r)
	}
	if r := NewTable(nil).Resolve("cat"); r.Kind != Unknown {
		t.Errorf("cat without read: %+v", r)
	}
}

// TestBeforeCommandScope: an option that stands before the command name only
// is agsh's there, and the command's word after it.
func TestBeforeCommandScope(t *testing.T) {
	saved := generated.GlobalOptions
	defer func() { generated.GlobalOptions = saved }()
	generated.GlobalOptions = append(slices.Clone(saved), generated.GlobalOption{Name: "--version", Scope: generated.BeforeCommand, Help: "version"})
	g, rest, err := SplitGlobals([]string{"--version"})
	if err != nil || g.Get("--version") != "true" || len(rest) != 0 {
		t.Errorf("before: %v %q %v", g.Values, rest, err)
	}
	g, rest, err = SplitGlobals([]string{"read", "--version"})
	if err != nil || g.Get("--version") != "" || strings.Join(rest, " ") != "read --version" {
		t.Errorf("after: %v %q %v", g.Values, rest, err)
	}
	if IsLaunchOnly("--output") || !IsLaunchOnly("--version") || !strings.Contains(Usage(), "--version") {
		t.Error("scope or usage")
	}
}

// TestTableNamesWhenAsked: the sorted names are made when first asked for,
// not with the table (`agsh help` and a call of a known tool never ask).
func TestTableNamesWhenAsked(t *testing.T) {
	table := NewTable([]catalog.ToolEntry{{Name: "zeta"}, {Name: "alpha"}, {Name: "mid"}})
	if table.names != nil {
		t.Fatalf("names made with the table: %q", table.names)
	}
	if r := table.Resolve("mid"); !r.IsTool() {
		t.Fatalf("mid: %+v", r)
	}
	if table.names != nil {
		t.Fatalf("names made to resolve a known tool")
	}
	if got := table.ToolNames(); !slices.Equal(got, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("ToolNames %q", got)
	}
}

// TestMeanings: one ordered list of what a name may mean, walked against a
// listing (Lookup), against the deployment (ToolCandidates) and by the
// index (a curated command over another tool is listed beside it).
func TestMeanings(t *testing.T) {
	curated.Register(curated.Spec{Name: "tree", Tool: "ls"})
	aliases["cat"] = "read"
	defer func() { curated.Unregister("tree"); delete(aliases, "cat") }()
	authored := catalog.Source{Kind: "authored"}
	tools := []catalog.ToolEntry{{Name: "ls", Title: "List a directory", Source: authored}, {Name: "read", Source: authored}, {Name: "head"}}
	table := NewTable(tools)
	for name, want := range map[string]Kind{"ls": Curated, "tree": Curated, "cat": Curated, "head": Tool, "tail": Filter, "exit": Word, ":help": Meta, "nope": Unknown} {
		if got := table.Lookup(name).Kind; got != want {
			t.Errorf("Lookup(%s) = %v, want %v", name, got, want)
		}
	}
	if got := strings.Join(ToolCandidates("tree"), " "); got != "tree ls" {
		t.Errorf("ToolCandidates(tree) = %q", got)
	}
	if got := strings.Join(ToolCandidates("cat"), " "); got != "cat read" {
		t.Errorf("ToolCandidates(cat) = %q", got)
	}
	if NewTable([]catalog.ToolEntry{{Name: "ls", Source: catalog.Source{Kind: "connection", Connection: "c"}}}).Lookup("tree").Kind != Unknown {
		t.Error("tree resolves over an ls that is not the authored one")
	}
	page, doc := IndexPage(&catalog.Info{Name: "a"}, tools)
	var rows []string
	for _, r := range page.Commands {
		rows = append(rows, r.Name+"="+r.Title)
	}
	if got := strings.Join(rows, ","); got != "head=,ls=List a directory,read=,tree=calls ls" {
		t.Errorf("the index's commands: %s", got)
	}
	if b, _ := json.Marshal(doc()); !strings.Contains(string(b), `{"name":"tree","title":"calls ls","group":""}`) {
		t.Errorf("the index document: %s", b)
	}
	if !slices.Contains(table.Commands(), "tree") {
		t.Error("Commands has no tree")
	}
}
