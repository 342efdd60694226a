package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/render"
)

// The claims of docs/architecture.md#where-a-change-goes, made to fail if
// they stop being true: a new command is one row of the curated table plus
// its reformatter, and a new output format one row of the format table
// plus its encoder. Neither test touches anything else.

// treeSpec is a tree-like command: the deployment's ls, every row of its
// listing printed with its depth as indentation.
var treeSpec = curated.Spec{
	Name: "tree", Tool: "ls",
	Operands: []curated.OperandSpec{{Name: "path", Candidates: []string{"target_directory", "path"}, Default: curated.DefaultRoot, Path: true}},
	Reformat: func(text string, _ curated.ReformatOptions) (curated.Output, bool) {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "- ") {
			return curated.Output{}, false
		}
		var b strings.Builder
		for _, l := range lines[1:] {
			body := strings.TrimLeft(l, " ")
			depth := (len(l) - len(body)) / 2
			if !strings.HasPrefix(body, "- ") {
				continue
			}
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth-1), body[2:])
		}
		return curated.Output{Stdout: b.String()}, true
	},
}

// upperEncoder is a fake data format: a value's compact JSON, upper-cased,
// between angle brackets.
type upperEncoder struct{}

func (upperEncoder) Value(w io.Writer, v render.Value) error {
	data := v.JSON
	if !v.IsJSON {
		data, _ = json.Marshal(v.Text)
	}
	_, err := fmt.Fprintf(w, "<%s>\n", strings.ToUpper(string(data)))
	return err
}
func (e upperEncoder) Document(w io.Writer, doc any) error {
	data, _ := json.Marshal(doc)
	return e.Value(w, render.Value{JSON: data, IsJSON: true})
}
func (e upperEncoder) Line(w io.Writer, doc any) error  { return e.Document(w, doc) }
func (upperEncoder) TextSink(io.Writer) render.TextSink { return nil }
func (e upperEncoder) Records(w io.Writer, lines bool) render.RecordSink {
	return render.ValueRecords(e, w, lines)
}

func TestExtendCommandAndFormat(t *testing.T) {
	curated.Register(treeSpec)
	render.RegisterFormat(render.Format{Name: "upper", Data: upperEncoder{}})
	t.Cleanup(func() { curated.Unregister("tree"); render.UnregisterFormat("upper") })

	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# demo\n", "src/a/b.go": "package a\n"})
	target := srv.AgentURL("executor")
	run := func(stdin string, args ...string) (string, string, int) {
		ios, out, errOut := iostreams.Test(stdin)
		status := Main(append([]string{"--target", target}, args...), ios, ttySafeEnv{})
		return out.String(), errOut.String(), status
	}

	// The new command, one-shot: it calls ls and prints the whole tree.
	out, errOut, status := run("", "tree", "/repo")
	if status != 0 || out != "README.md\nsrc/\n  a/\n    b.go\n" {
		t.Errorf("tree /repo: exit %d\n%s%s", status, out, errOut)
	}
	// Its help page is the curated shape's, over ls's schema.
	if out, _, status := run("", "tree", "--help"); status != 0 || !strings.Contains(out, "tree [options...] [path]") ||
		!strings.HasPrefix(out, "NAME\n    tree\n") || !strings.Contains(out, "Calls the deployment's ls tool.") {
		t.Errorf("tree --help: exit %d\n%s", status, out)
	}
	// agsh help names it, and help tree is its page, one-shot and in the
	// shell: the command table's meanings, walked by every place that asks.
	page, _, _ := run("", "tree", "--help")
	if out, errOut, status := run("", "help", "tree"); status != 0 || out != page {
		t.Errorf("help tree: exit %d\n%s%s", status, out, errOut)
	}
	if out, errOut, status := run("help tree\n"); status != 0 || out != page {
		t.Errorf("help tree in a script: exit %d\n%s%s", status, out, errOut)
	}
	if out, errOut, status := run("", "help"); status != 0 || !regexp.MustCompile(`(?m)^\s+tree\b`).MatchString(out) {
		t.Errorf("help does not list tree: exit %d\n%s%s", status, out, errOut)
	}
	if out, errOut, status := run("", "help", "--output", "json"); status != 0 || !strings.Contains(out, `"name": "tree"`) {
		t.Errorf("help --output json does not list tree: exit %d\n%s%s", status, out, errOut)
	}
	// In a script, with a filter after it, and in the did-you-mean.
	if out, errOut, status := run("tree /repo | head -n 2\n"); status != 0 || out != "README.md\nsrc/\n" {
		t.Errorf("tree in a script: exit %d\n%s%s", status, out, errOut)
	}
	if _, errOut, status := run("", "tre"); status != 2 || !strings.Contains(errOut, "tree") {
		t.Errorf("tre: exit %d, want a suggestion of tree:\n%s", status, errOut)
	}

	// The new format: values, documents and the error line go through it.
	if out, errOut, status := run("", "--output", "upper", "list_changes", "--limit", "1"); status != 0 || !strings.HasPrefix(out, `<[{"SHA":`) {
		t.Errorf("list_changes --output upper: exit %d\n%s%s", status, out, errOut)
	}
	if out, _, status := run("", "read", "/repo/README.md", "--output=upper"); status != 0 || out != "<\"     1|# DEMO\\N     2|\">\n" {
		t.Errorf("read --output=upper: exit %d\n%q", status, out)
	}
	if out, _, status := run("", "help", "--output", "upper"); status != 0 || !strings.HasPrefix(out, `<{"NAME":`) {
		t.Errorf("help --output upper: exit %d\n%s", status, out)
	}
	if _, errOut, status := run("", "--output", "upper", "nosuchtool"); status != 2 || !strings.Contains(errOut, `<{"ERROR":"UNKNOWN_TOOL"`) {
		t.Errorf("an error under --output upper: exit %d\n%s", status, errOut)
	}
	// A session's record goes through it too: :trace's one value, :tail's
	// value a line (the line's format, never JSON by another name).
	id := createSession(t, target, "say hello")
	waitState(t, target, id, "waiting")
	if out, errOut, status := run("", ":trace", id, "--output", "upper"); status != 0 || !strings.HasPrefix(out, `<[{"`) ||
		!strings.Contains(out, `"TYPE":"MESSAGE.COMPLETED"`) || strings.Count(out, "\n") != 1 {
		t.Errorf(":trace --output upper: exit %d\n%s%s", status, out, errOut)
	}
	if out, errOut, status := run("", "--output", "upper", ":tail", id); status != 0 || !strings.HasPrefix(out, `<{"`) ||
		strings.Count(out, "<") != strings.Count(out, "\n") || strings.Contains(out, "[") {
		t.Errorf(":tail --output upper: exit %d\n%s%s", status, out, errOut)
	}
	// In the shell, the line's format reaches the help word's pages and the
	// meta commands the same way; an empty --output is the same mistake there
	// as on agsh's command line.
	if out, errOut, status := run("help --output upper read\n:trace " + id + " --output upper\n"); status != 0 ||
		!strings.HasPrefix(out, `<{"NAME":"READ"`) || !strings.Contains(out, "\n<[{\"") {
		t.Errorf("help and :trace --output upper in a script: exit %d\n%s%s", status, out, errOut)
	}
	if _, errOut, status := run(":sessions --output=\n"); status != 2 || !strings.Contains(errOut, "--output must be "+strings.Join(render.FormatNames(), " or ")+`, not ""`) {
		t.Errorf(":sessions --output= in a script: exit %d\n%s", status, errOut)
	}
	// A name no row has is refused, the table's names given.
	if _, errOut, status := run("", "--output", "no-such-format", "help"); status != 2 ||
		!strings.Contains(errOut, "--output must be "+strings.Join(render.FormatNames(), " or ")) || !strings.Contains(errOut, " or upper") {
		t.Errorf("--output no-such-format: exit %d\n%s", status, errOut)
	}
}

// helloRow is a meta command as a file of internal/meta would add it: one
// row with its Run. It answers its operand, or its --count times.
var helloRow = meta.MetaCommand{Name: ":hello", Usage: ":hello [name]", Summary: "a greeting (a test's meta command)",
	Operands: []meta.MetaOperand{{Name: "name"}},
	Flags:    []meta.MetaFlag{{Name: "--count", Placeholder: "<n>", Help: "how many times", Int: true, Max: 3}},
	Run: func(_ context.Context, m *meta.MetaRun, args []string) (meta.MetaResult, error) {
		name, n := "world", 1
		for i := 0; i < len(args); i++ {
			switch {
			case args[i] == "--count" && i+1 < len(args):
				n, _ = strconv.Atoi(args[i+1])
				i++
			default:
				name = args[i]
			}
		}
		if m.Format.IsData() {
			return meta.MetaResult{Value: render.Value{JSON: json.RawMessage(`{"hello":"` + name + `"}`), IsJSON: true}}, nil
		}
		return meta.MetaResult{Value: render.Value{Text: strings.Repeat("hello, "+name+"\n", n)}}, nil
	}}

// TestExtendMetaCommand: a new meta command is one row of internal/meta's
// table (and the file of its Run): resolution, its check, its page, :help,
// agsh --help, the shell, the line's format and Tab follow.
func TestExtendMetaCommand(t *testing.T) {
	meta.Register(helloRow)
	t.Cleanup(func() { meta.Unregister(":hello") })
	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# demo\n"})
	target := srv.AgentURL("executor")
	run := func(stdin string, args ...string) (string, string, int) {
		ios, out, errOut := iostreams.Test(stdin)
		status := Main(append([]string{"--target", target}, args...), ios, ttySafeEnv{})
		return out.String(), errOut.String(), status
	}
	if out, errOut, status := run("", ":hello", "you", "--count", "2"); status != 0 || out != "hello, you\nhello, you\n" {
		t.Errorf(":hello you --count 2: exit %d\n%s%s", status, out, errOut)
	}
	if out, _, status := run("", ":hello", "--output", "json"); status != 0 || out != "{\n  \"hello\": \"world\"\n}\n" {
		t.Errorf(":hello --output json: exit %d\n%q", status, out)
	}
	if _, errOut, status := run("", ":hello", "--count", "9"); status != 2 || !strings.Contains(errOut, ":hello: --count takes a whole number from 1 to 3") {
		t.Errorf(":hello --count 9: exit %d\n%s", status, errOut)
	}
	if out, _, status := run("", ":hello", "--help"); status != 0 || !strings.Contains(out, ":hello [name]") || !strings.Contains(out, "how many times") {
		t.Errorf(":hello --help: exit %d\n%s", status, out)
	}
	if out, _, _ := run("", "--help"); !strings.Contains(out, ":hello") {
		t.Errorf("agsh --help does not list :hello:\n%s", out)
	}
	if out, errOut, status := run(":help\n:hello shell | wc -l\n"); status != 0 || !strings.Contains(out, "a greeting (a test's meta command)") || !strings.HasSuffix(out, "1\n") {
		t.Errorf(":help and :hello in a script: exit %d\n%s%s", status, out, errOut)
	}
	if _, errOut, status := run("", ":helo"); status != 2 || !strings.Contains(errOut, ":hello") {
		t.Errorf(":helo: exit %d, want a suggestion of :hello:\n%s", status, errOut)
	}
	ios, out, _ := iostreams.Test("")
	Main([]string{"--__complete", "bash", "--", "agsh --target " + target + " :hel", ":hel"}, ios, ttySafeEnv{})
	if !strings.Contains(out.String(), ":hello") {
		t.Errorf("Tab after :hel: %q", out.String())
	}
}
