package mcpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
	"github.com/agsh-dev/agsh/internal/wire"
)

// corpusTool is one corpus file.
type corpusTool struct {
	connector, file string
	def             fileTool
}

// readCorpus reads every tool file of the corpus folders.
func readCorpus(t *testing.T, corpus string) (folders []string, tools []corpusTool) {
	t.Helper()
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(corpus, e.Name())
		folders = append(folders, dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var def fileTool
			if err := json.Unmarshal(data, &def); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			tools = append(tools, corpusTool{e.Name(), f, def})
		}
	}
	if len(tools) == 0 {
		t.Skip("the corpus holds no tool files")
	}
	return folders, tools
}

func TestCorpusEchoKeepsSchemasAndInputs(t *testing.T) {
	testcorpus.Each(t, func(t *testing.T, set testcorpus.Set) { testCorpusEchoKeepsSchemasAndInputs(t, set.Dir) })
}

func testCorpusEchoKeepsSchemasAndInputs(t *testing.T, dir string) {
	folders, files := readCorpus(t, dir)
	logs := &logSink{}
	s := startSet(t, Config{EchoTools: folders, Logf: logs.logf})
	if logs.String() != "" {
		t.Errorf("reports:\n%s", logs)
	}
	planner := s.Tools("planner")
	if got, want := len(planner), len(files)+3; got != want {
		t.Errorf("planner has %d tools, want %d (the corpus and datadog)", got, want)
	}
	for _, f := range files {
		tl := toolNamed(t, planner, AdvertisedName("echo", f.connector, f.def.Name))
		if !bytes.Equal(tl.InputSchema, f.def.InputSchema) {
			t.Errorf("%s: InputSchema differs from the file's bytes", f.file)
		}
		if f.def.OutputSchema != nil && !bytes.Equal(tl.OutputSchema, f.def.OutputSchema) {
			t.Errorf("%s: OutputSchema differs from the file's bytes", f.file)
		}
		if tl.Source.Kind != "connection" || tl.Source.Connection != "echo" || tl.Source.Connector != f.connector {
			t.Errorf("%s: source %+v", f.file, tl.Source)
		}
		// The annotations are the file's: the SDK's server would add a
		// false readOnlyHint and idempotentHint the file does not declare.
		var wantAnn *wire.Annotations
		if f.def.Annotations != nil {
			wantAnn = &wire.Annotations{}
			if err := json.Unmarshal(f.def.Annotations, wantAnn); err != nil {
				t.Fatalf("%s: annotations: %v", f.file, err)
			}
		}
		if !reflect.DeepEqual(tl.Annotations, wantAnn) {
			got, _ := json.Marshal(tl.Annotations)
			t.Errorf("%s: annotations %s, want %s", f.file, got, f.def.Annotations)
		}
		wantTitle := f.def.Title
		if wantTitle == "" && f.def.Annotations != nil {
			var a struct{ Title string }
			_ = json.Unmarshal(f.def.Annotations, &a)
			wantTitle = a.Title
		}
		if tl.Title != wantTitle || tl.Description != f.def.Description {
			t.Errorf("%s: title %q description %.40q, want %q %.40q", f.file, tl.Title, tl.Description, wantTitle, f.def.Description)
		}
		input := sampleInput(t, f.def.InputSchema)
		r, res := callTool(t, tl, input)
		if res.IsError || string(r.StructuredContent) != input || r.text() != input {
			t.Errorf("%s: echo of %s answered structured %s text %s", f.file, input, r.StructuredContent, r.text())
		}
	}
}

// TestCorpusListedOverMCPKeepsOrder checks what the echo server sends in
// tools/list, before the file's bytes replace it: the SDK does not reorder.
func TestCorpusListedOverMCPKeepsOrder(t *testing.T) {
	testcorpus.Each(t, func(t *testing.T, set testcorpus.Set) { testCorpusListedOverMCPKeepsOrder(t, set.Dir) })
}

func testCorpusListedOverMCPKeepsOrder(t *testing.T, dir string) {
	folders, files := readCorpus(t, dir)
	c, err := startEcho(context.Background(), folders, t.Errorf)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	listed, err := c.listTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]listedTool{}
	for _, lt := range listed {
		byName[lt.Name] = lt
	}
	for _, f := range files {
		lt, ok := byName[f.connector+"."+f.def.Name]
		if !ok {
			t.Errorf("%s: not listed", f.file)
			continue
		}
		got, want := propertyPaths(t, lt.InputSchema, ""), propertyPaths(t, f.def.InputSchema, "")
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: listed properties %v, file %v", f.file, got, want)
		}
		var compact bytes.Buffer
		_ = json.Compact(&compact, f.def.InputSchema)
		if sdk, _ := objectTyped(compact.Bytes()); !bytes.Equal(lt.InputSchema, sdk) && !bytes.Contains(compact.Bytes(), []byte("<")) {
			t.Errorf("%s: listed schema is not the file's, compacted:\n%s\n%s", f.file, lt.InputSchema, sdk)
		}
	}
}

// samples are the values of a sample input: big integers, decimals and
// exponents whose spelling a float64 would change, nested values.
var samples = []string{
	`12345678901234567890123`,
	`1.50`,
	`"sample"`,
	`-0.000000000000000000012345678901234567890`,
	`9007199254740993`,
	`true`,
	`{"z":1.0,"a":[1e400,2.50]}`,
	`["x",18446744073709551617]`,
	`null`,
	`"ünïcödé ✓"`,
	`"<a href=\"x\"> & </a>"`,
}

// sampleInput makes an input with the schema's properties in reverse order
// (so that a sorted echo would show), cycling through samples.
func sampleInput(t *testing.T, schema json.RawMessage) string {
	t.Helper()
	var keys []string
	for _, p := range propertyPaths(t, schema, "") {
		if !strings.Contains(p, ".") {
			keys = append(keys, p)
		}
	}
	keys = append(keys, "extra_big", "extra_decimal")
	var b strings.Builder
	b.WriteByte('{')
	for i := len(keys) - 1; i >= 0; i-- {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(keys[i])
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(samples[i%len(samples)])
	}
	b.WriteByte('}')
	return b.String()
}
