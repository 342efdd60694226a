package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// sgr is the only escape sequence agsh's own views may write (color on).
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestResultSamples renders every result sample of testdata/results (the
// shapes a deployment answers: tables, ragged and wide tables, property
// views, lists, text, MCP results, hostile text) on a terminal at two widths,
// color off and on: no error, and no control byte but newline, tab and (with
// color) SGR sequences; with --output json the bytes are valid JSON.
func TestResultSamples(t *testing.T) {
	files, _ := filepath.Glob(testcorpus.Testdata(t, "results", "*.json"))
	if len(files) < 10 {
		t.Fatalf("only %d result samples in testdata/results", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			v := FromResult(raw)
			if strings.HasPrefix(name, "mcp_error") != v.IsError {
				t.Errorf("IsError = %v", v.IsError)
			}
			for _, width := range []int{80, 40} {
				for _, color := range []bool{false, true} {
					var out, notes bytes.Buffer
					if err := Write(&out, &notes, v, Options{TTY: true, Color: color, Width: width}); err != nil {
						t.Fatalf("width %d color %v: %v", width, color, err)
					}
					for _, s := range []string{out.String(), notes.String()} {
						if color {
							s = sgr.ReplaceAllString(s, "")
						}
						for _, r := range s {
							if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
								t.Fatalf("width %d color %v: control %U in\n%q", width, color, r, s)
							}
						}
					}
					if !strings.HasPrefix(name, "empty") && out.Len() == 0 {
						t.Errorf("width %d: nothing written", width)
					}
				}
			}
			if v.IsJSON {
				var out bytes.Buffer
				if err := WriteJSON(&out, v); err != nil {
					t.Fatal(err)
				}
				if !json.Valid(out.Bytes()) {
					t.Errorf("--output json wrote %q", out.String())
				}
			}
		})
	}
}

// TestResultSampleShapes pins what two real servers' shapes show: a SQL answer
// whose note column is null everywhere keeps its column, and an MCP prose
// part wraps on a terminal (its code block does not) but not in a pipe.
func TestResultSampleShapes(t *testing.T) {
	read := func(name string) Value {
		raw, err := os.ReadFile(testcorpus.Testdata(t, "results", name))
		if err != nil {
			t.Fatal(err)
		}
		return FromResult(raw)
	}
	got, _ := render(t, read("table_null_column.json"), Options{TTY: true, Width: 80})
	if !strings.HasPrefix(got, "ID  NAME             NOTE\n1   Ada Lovelace\n") {
		t.Errorf("the null column:\n%s", got)
	}
	prose := read("mcp_text_prose.json")
	got, _ = render(t, prose, Options{TTY: true, Width: 60})
	code := "npx eslint --rule 'no-unused-vars: error' src/app.ts src/util.ts src/index.ts --format stylish"
	if !strings.Contains(got, "\n"+code+"\n") || !strings.Contains(got, "- src/app.ts: the import of ./util.js is not used anywhere\n  in the module") {
		t.Errorf("on a terminal:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if textWidth(l) > 60 && l != code {
			t.Errorf("a prose line past 60 cells: %q", l)
		}
	}
	if piped, _ := render(t, prose, Options{Width: 60}); !strings.Contains(piped, "so it may be worth a look before you commit.\n\n- src/app.ts: the import of ./util.js is not used anywhere in the module and can go away safely\n") {
		t.Errorf("piped:\n%s", piped)
	}
}
