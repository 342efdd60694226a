package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/benchdata"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/termsafe"
	"github.com/agsh-dev/agsh/render"
)

// jsonLine writes every call with --input-json, as agsh writes a tool it
// has no command of: the same escaping as :replay's.
func jsonLine(_ context.Context, tool string, input json.RawMessage) (string, bool, error) {
	if len(input) == 0 || input[0] != '{' {
		return "", false, generated.ErrNotObject
	}
	return generated.Line(tool, []string{generated.InputJSONOption,
		string(generated.SafeInputJSON(jsontext.AppendCompact(nil, input)))}), true, nil
}

// hostileRecord is a record whose every value tries to escape: tool names
// that are meta words, options and metacharacters, a cut input, a huge
// argument, terminal escapes, Markdown and HTML in every text, and a
// record whose older events were dropped.
func hostileRecord(huge string) []string {
	return []string{
		ev(4, "record.truncated", `{"dropped":4,"firstIndex":5,"note":"4 older events were dropped"}`),
		ev(5, "turn.started", `{"turnId":"t1","source":"message","message":"# PWN heading\n`+"```"+`\n<script>PWN</script>\n\u001b[2J\u202egnp","traceId":"4bf92f3577b34da6a3ce929d0e0e4736"}`),
		ev(6, "actions.requested", `{"turnId":"t1","calls":[`+
			`{"callId":"call_ok","toolName":"read","input":{"path":"/a `+"``"+` b","x":"it's \u001b[31m\u202e"}},`+
			`{"callId":"call_stop","toolName":":stop","input":{}},`+
			`{"callId":"call_opt","toolName":"--session=ses_x","input":{}},`+
			`{"callId":"call_yes","toolName":"--yes","input":{}},`+
			`{"callId":"call_h","toolName":"-h","input":{}},`+
			`{"callId":"call_help","toolName":"help","input":{}},`+
			`{"callId":"call_exit","toolName":"exit","input":{}},`+
			`{"callId":"call_meta","toolName":"read;rm -rf /","input":{}},`+
			`{"callId":"call_esc","toolName":"read\u001b]0;PWN\u0007","input":{}},`+
			`{"callId":"call_nl","toolName":"read\n:stop","input":{}},`+
			`{"callId":"call_cut","toolName":"read","input":null,"inputTruncated":true},`+
			`{"callId":"call_huge","toolName":"grep","input":{"pattern":"`+huge+`"}}]}`),
		ev(7, "action.result", `{"callId":"call_ok","toolName":"read","isError":false,"result":"`+"``"+`PWN`+"`"+` *x* <b>PWN</b>\nline 2","durationMs":3}`),
		ev(8, "approval.requested", `{"callId":"call_huge","toolName":"grep","input":{"pattern":"x"}}`),
		ev(9, "approval.resolved", `{"callId":"call_huge","decision":"approve","decidedBy":"[PWN](http://x) *op*","reason":"ok\u001b[2J\n# PWN"}`),
		ev(10, "action.result", `{"callId":"call_huge","toolName":"grep","isError":true,"result":"`+"````"+`\nPWN error\n`+"````"+`\n<img src=x>","durationMs":1500}`),
		ev(11, "message.completed", `{"text":"Done. `+"`````"+` [PWN](javascript:x) <i>PWN</i>\n\u001b[2J last","finishReason":"stop"}`),
		ev(12, "turn.completed", `{"turnId":"t1"}`),
	}
}

// The hostile calls of hostileRecord that get no command line.
var leftOutCalls = []string{"call_stop", "call_opt", "call_yes", "call_h", "call_help", "call_exit", "call_meta", "call_esc", "call_nl", "call_cut"}

func exportOf(t *testing.T, c *catalog.Client, as string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	var notes []string
	e := env(c, &out, render.Options{}, &notes)
	e.CallLine = jsonLine
	err := Export(context.Background(), e, "ses_1", ExportOptions{As: as, Agent: "agent *x*", Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	return out.String(), err
}

// An exported script of a hostile record: each call that a plain command
// word names is one line, the huge argument whole; every other call is a
// comment saying it was left out, and the export exits 3; every comment is
// one line, safe for a terminal.
func TestExportScriptHostile(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 1<<20)
	c := listedServer(t, hostileRecord(huge), nil, `{"sessionId":"ses_1","mode":"chat","title":"t\u001b[2J\nline"}`)
	out, err := exportOf(t, c, ExportScript)
	var lo *LeftOutError
	if !errors.As(err, &lo) || lo.N != len(leftOutCalls) || lo.Calls != 12 || lo.ExitCode() != 3 {
		t.Fatalf("export: %v", err)
	}
	var commands []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !termsafe.Plain(line) {
			t.Errorf("a line is not plain text: %q", clip(line, 200))
		}
		switch {
		case line == "" || strings.HasPrefix(line, "# "):
		default:
			commands = append(commands, line)
		}
	}
	want := []string{
		`read --input-json '{"path":"/a ` + "``" + ` b","x":"it\u0027s \u001b[31m\u202e"}'`,
		`grep --input-json '{"pattern":"` + huge + `"}'`,
	}
	if len(commands) != len(want) {
		t.Fatalf("%d command lines, want %d:\n%s", len(commands), len(want), clip(out, 4000))
	}
	for i := range want {
		if commands[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, clip(commands[i], 200), clip(want[i], 200))
		}
	}
	for _, id := range leftOutCalls {
		if !regexp.MustCompile(`(?m)^# left out: call ` + id + `: \S`).MatchString(out) {
			t.Errorf("no left-out comment for %s", id)
		}
	}
	for _, w := range []string{
		"# The write guard", "# the deployment dropped 4 older events; the calls before event 5 are not in this script",
		"# turn t1 (message) started 2026-01-02T03:04:10Z, trace 4bf92f3577b34da6a3ce929d0e0e4736",
		`#   > # PWN heading`, `#     \x1b[2J\u202egnp`, "#   ⇒ ok 3ms: ``PWN` *x* <b>PWN</b> …",
		"#   approved by [PWN](http://x) *op* 2026-01-02T03:04:14Z: ok\\x1b[2J …", "#   ⇒ ERROR 1.5s: ```` …",
		"# model: Done.", "#        \\x1b[2J last", "# end of the record: 9 events, 12 calls, 10 of them left out",
	} {
		if !strings.Contains(out, strings.Replace(w, "# The write guard", "# Writes are calls like the others: the write guard applies", 1)) {
			t.Errorf("the script lacks %q:\n%s", w, clip(out, 3000))
		}
	}
}

// The report of a hostile record: no value makes Markdown of its own. Read
// back by a CommonMark parser, every text of the deployment's is inside a
// code span, a fenced block or plain text: no heading but the report's, no
// emphasis, link, image or HTML comes from a value; and every byte is safe
// for a terminal.
func TestExportMarkdownHostile(t *testing.T) {
	t.Parallel()
	c := listedServer(t, hostileRecord("y"), nil,
		`{"sessionId":"ses_1","mode":"chat","title":"# PWN `+"`x`"+` *PWN* <b>PWN</b> [PWN](http://x)\u001b[2J","createdAt":"2026-01-02T03:04:00Z"}`)
	out, err := exportOf(t, c, ExportMarkdown)
	if err != nil {
		t.Fatal(err)
	}
	if !termsafe.Clean(out) {
		t.Errorf("the report is not safe for a terminal")
	}
	src := []byte(out)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var headings []string
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindHeading:
			headings = append(headings, string(nodeText(n, src)))
		case ast.KindEmphasis:
			if strings.Contains(string(nodeText(n, src)), "PWN") || n.Parent() == nil {
				return ast.WalkStop, fmt.Errorf("emphasis from a value: %q", nodeText(n, src))
			}
		case ast.KindLink, ast.KindImage, ast.KindAutoLink, ast.KindRawHTML, ast.KindHTMLBlock:
			return ast.WalkStop, fmt.Errorf("%s from a value: %q", n.Kind(), nodeText(n, src))
		case ast.KindCodeSpan:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	wantHeadings := []string{`# PWN x PWN PWN PWN\x1b[2J`, "Turn 1: message", "Final message", "Summary"}
	if len(headings) != len(wantHeadings) {
		t.Errorf("headings %q, want %q\n%s", headings, wantHeadings, out)
	}
	// Each value comes back whole from its code span or block.
	for _, w := range []string{
		"- ```read --input-json '{\"path\":\"/a `` b\",\"x\":\"it\\u0027s \\u001b[31m\\u202e\"}'``` — **ok** in 3ms · `call_ok`",
		"````text\n# PWN heading\n```\n<script>PWN</script>\n\\x1b[2J\\u202egnp\n````",
		"  - ⇒ ``` ``PWN` *x* <b>PWN</b> … ```", "\n    `````text\n    ````\n    PWN error\n    ````\n    <img src=x>\n    `````\n",
		`- *no command line* (its tool name \"\:stop\" is spelled like a meta command) — *no result in the record* · ` + "`call_stop`",
		"trace `4bf92f3577b34da6a3ce929d0e0e4736`",
		"  - approved by \\[PWN\\]\\(http\\:\\/\\/x\\) \\*op\\* `2026-01-02T03:04:14Z`: ok\\\\x1b\\[2J …",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	t.Log(out)
}

// A record cut off in the middle (the connection drops): the script and
// the report say they are incomplete and the export fails (exit 5); with
// -o, no file is left behind. A record whose older events were dropped is
// said so (above).
func TestExportCutRecord(t *testing.T) {
	t.Parallel()
	record := benchdata.Record(200)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a/v1/sessions" {
			fmt.Fprint(w, `{"ok":true,"sessions":[]}`)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Content-Length", fmt.Sprint(len(record)))
		_, _ = w.Write(record[:len(record)/2])
		w.(http.Flusher).Flush()
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		conn.Close()
	}))
	defer srv.Close()
	c, err := catalog.New(srv.URL+"/a", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for as, want := range map[string]string{
		ExportScript:   "# the record could not be read to its end (",
		ExportMarkdown: "> **The record could not be read to its end** (",
	} {
		out, err := exportOf(t, c, as)
		if err == nil || !strings.Contains(out, want) || strings.Contains(out, "end of the record") || strings.Contains(out, "## Summary") {
			t.Errorf("%s: %v\n%s", as, err, out[max(0, len(out)-500):])
		}
		var ce *catalog.Error
		if !errors.As(err, &ce) || ce.ExitCode() != 5 {
			t.Errorf("%s: %v, want exit 5", as, err)
		}
		file := filepath.Join(t.TempDir(), "export")
		e := env(c, io.Discard, render.Options{}, new([]string))
		if err := Export(context.Background(), e, "ses_1", ExportOptions{As: as, File: file}); err == nil {
			t.Errorf("%s -o: no error", as)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "*")); len(left) != 0 {
			t.Errorf("%s -o: %v left behind", as, left)
		}
	}
}

// -o writes the file whole through a new file renamed into place, 0600,
// and replaces a symbolic link there rather than writing through it.
func TestExportFile(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord, nil)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "report.md")
	if err := os.Symlink(victim, file); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	e := env(c, &out, render.Options{TTY: true}, new([]string))
	if err := Export(context.Background(), e, "ses_1", ExportOptions{As: ExportMarkdown, File: file}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	fi, _ := os.Lstat(file)
	if err != nil || !strings.HasPrefix(string(b), "# Session `ses_1`") || fi.Mode() != 0o600 || out.Len() != 0 {
		t.Errorf("%v %v %q (stdout %q)", err, fi.Mode(), clip(string(b), 100), out.String())
	}
	if v, _ := os.ReadFile(victim); string(v) != "keep" {
		t.Errorf("written through the link: %q", v)
	}
	// --as json is :trace --output json of the whole record.
	out.Reset()
	if err := Export(context.Background(), e, "ses_1", ExportOptions{As: ExportJSON}); err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	if err := Trace(context.Background(), Env{Client: c, Out: &trace, Opts: render.Options{TTY: true}}, "ses_1", TraceOptions{Format: render.JSON}); err != nil {
		t.Fatal(err)
	}
	if out.String() != trace.String() {
		t.Errorf("--as json:\n%s\n:trace --output json:\n%s", out.String(), trace.String())
	}
}

// A turn's trace id (traceId, a W3C trace id) shows on its :trace row; one
// that is not a trace id is left out.
func TestTraceShowsTraceID(t *testing.T) {
	t.Parallel()
	c := recordServer(t, []string{
		ev(0, "turn.started", `{"turnId":"t1","source":"message","traceId":"4bf92f3577b34da6a3ce929d0e0e4736"}`),
		ev(1, "turn.started", `{"turnId":"t2","source":"message","traceId":"4BF92F3577B34DA6A3CE929D0E0E4736\u001b[2J"}`),
		ev(2, "turn.started", `{"turnId":"t3","source":"message","traceId":"00000000000000000000000000000000"}`),
	}, nil)
	var out strings.Builder
	if err := Trace(context.Background(), env(c, &out, render.Options{Width: 200}, new([]string)), "ses_1", TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "trace ") != 1 || !strings.Contains(out.String(), "(message)  trace 4bf92f3577b34da6a3ce929d0e0e4736\n") {
		t.Errorf(":trace:\n%s", out.String())
	}
}

// nodeText is the text of a Markdown node: its text and string leaves, in
// order (goldmark's Node.Text is deprecated).
func nodeText(n ast.Node, src []byte) []byte {
	var b []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b = append(b, c.Segment.Value(src)...)
			case *ast.String:
				b = append(b, c.Value...)
			}
		}
		return ast.WalkContinue, nil
	})
	return b
}

// A turn's end and the session's wait are paragraphs of their own in the
// report, never the continuation of the call above them: read back by a
// CommonMark parser, neither is inside a list item ("**Turn FAILED**" right
// under a result's item was part of it).
func TestExportMarkdownTurnEndOutsideList(t *testing.T) {
	t.Parallel()
	c := listedServer(t, []string{
		ev(0, "turn.started", `{"turnId":"t1","source":"message","message":"run it"}`),
		ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"call_1","toolName":"ls","input":{}}]}`),
		ev(2, "action.result", `{"callId":"call_1","toolName":"ls","isError":false,"result":"- /repo/a\n- /repo/b","durationMs":7}`),
		ev(3, "turn.failed", `{"turnId":"t1","reason":"error","message":"the checks broke"}`),
		ev(4, "session.waiting", ""),
	}, nil, `{"sessionId":"ses_1","mode":"chat","title":"nightly"}`)
	out, err := exportOf(t, c, ExportMarkdown)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(out)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	found := map[string]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindParagraph {
			return ast.WalkContinue, nil
		}
		s := string(nodeText(n, src))
		for _, w := range []string{"Turn FAILED", "The session waits for a follow-up message."} {
			if !strings.Contains(s, w) {
				continue
			}
			found[w] = true
			for p := n.Parent(); p != nil; p = p.Parent() {
				if p.Kind() == ast.KindListItem || p.Kind() == ast.KindList {
					t.Errorf("%q is inside a list item: %q\n%s", w, s, out)
				}
			}
		}
		return ast.WalkContinue, nil
	})
	if len(found) != 2 {
		t.Errorf("found %v in\n%s", found, out)
	}
}

// The script's last line counts in English: "1 event, 1 call", not "1 calls".
func TestExportScriptCountsOne(t *testing.T) {
	t.Parallel()
	c := listedServer(t, []string{
		ev(0, "actions.requested", `{"calls":[{"callId":"call_1","toolName":"ls","input":{}}]}`),
	}, nil, `{"sessionId":"ses_1","mode":"chat"}`)
	out, err := exportOf(t, c, ExportScript)
	if err != nil || !strings.HasSuffix(out, "# end of the record: 1 event, 1 call\n") {
		t.Errorf("export: %v\n%s", err, out)
	}
}

// A record that cannot be read at all (here an unknown session, 404) is
// exported as nothing but the error (exit 3): no header of a report or a
// script for a session the deployment does not have.
func TestExportUnreadableRecordWritesNothing(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a/v1/sessions" {
			fmt.Fprint(w, `{"ok":true,"sessions":[]}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"ok":false,"error":"unknown_session","message":"no session ses_1"}`)
	}))
	defer srv.Close()
	c, err := catalog.New(srv.URL+"/a", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, as := range []string{ExportScript, ExportMarkdown} {
		out, err := exportOf(t, c, as)
		var ce *catalog.Error
		if out != "" || !errors.As(err, &ce) || ce.ExitCode() != 3 {
			t.Errorf("%s: %v, wrote\n%s", as, err, out)
		}
	}
}

// -o naming a directory (-o ., -o reports/) is refused before the record
// is read, with the fix: it failed at the rename, after the whole read,
// naming the temporary file ("rename /.agsh-export-… /tmp: file exists").
func TestExportFileIsADirectory(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord, nil)
	dir := t.TempDir()
	e := env(c, io.Discard, render.Options{}, new([]string))
	err := Export(context.Background(), e, "ses_1", ExportOptions{As: ExportMarkdown, File: dir})
	var fe *ExportFileError
	if !errors.As(err, &fe) || fe.ExitCode() != 2 ||
		err.Error() != "cannot write "+strconv.Quote(dir)+": it is a directory; name a file (-o "+filepath.Join(dir, "report.md")+")" {
		t.Fatalf("-o %s: %v", dir, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".agsh-export-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	// A directory that does not exist is said so, without agsh's
	// temporary file name.
	missing := filepath.Join(dir, "no", "x.md")
	err = Export(context.Background(), e, "ses_1", ExportOptions{As: ExportMarkdown, File: missing})
	if err == nil || err.Error() != "cannot write "+strconv.Quote(missing)+": there is no directory "+filepath.Dir(missing) {
		t.Errorf("-o %s: %v", missing, err)
	}
}
