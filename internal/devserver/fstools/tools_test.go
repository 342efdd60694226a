package fstools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/testcorpus"
)

func TestToolsMetadata(t *testing.T) {
	tools := Tools([]tool.Mount{{Path: "/repo", Dir: t.TempDir()}})
	want := []struct{ name, title string }{
		{"read", "Read a file"}, {"ls", "List a directory"}, {"grep", "Search file contents"},
		{"glob", "Find files by pattern"}, {"diff", "Show workspace changes"}, {"list_changes", ""},
	}
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for i, tl := range tools {
		if tl.Name != want[i].name || tl.Title != want[i].title {
			t.Errorf("tool %d = %s %q, want %s %q", i, tl.Name, tl.Title, want[i].name, want[i].title)
		}
		if tl.Effect != "read" || !tl.Validate || !tl.ReadOnly() || tl.Call == nil || tl.Description == "" || !tl.Source.Authored() {
			t.Errorf("%s: effect %q validate %v source %+v description %q", tl.Name, tl.Effect, tl.Validate, tl.Source, tl.Description)
		}
		var schema map[string]any
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: input schema %v: %s", tl.Name, err, tl.InputSchema)
		}
	}
	if !json.Valid(tools[5].OutputSchema) {
		t.Errorf("list_changes output schema is not JSON")
	}
}

// stripDescriptions drops every "description" key, leaving the contract.
func stripDescriptions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "description" {
				out[k] = stripDescriptions(e)
			}
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = stripDescriptions(e)
		}
	}
	return v
}

// schemaBlocks answers the first JSON block of each section of a markdown
// page whose heading names a tool, by tool name, descriptions stripped:
// heading matches `## The read tool` (docs/) or "### `read` — high" (the
// specification).
func schemaBlocks(t *testing.T, page string, heading string) map[string]any {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]any{}
	for _, m := range regexp.MustCompile("(?s)"+heading+"[^\n]*\n(?:(?:[^#`\n][^\n]*)?\n)*?```json\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
		var v any
		if err := json.Unmarshal([]byte(m[2]), &v); err != nil {
			t.Fatalf("%s: the %s block: %v", page, m[1], err)
		}
		blocks[m[1]] = stripDescriptions(v)
	}
	return blocks
}

// TestSchemasMatchDocs compares each tool's input schema, descriptions aside
// (they are ours), with its JSON block in docs/file-tools.md; the "spec"
// subtest checks those blocks against the specification docs/ was written
// from (skipped outside CI when it is absent).
func TestSchemasMatchDocs(t *testing.T) {
	docs := schemaBlocks(t, filepath.Join(testcorpus.Root(t), "docs", "file-tools.md"), "## The (\\w+) tool")
	tools := Tools(nil)
	if len(docs) != len(tools) {
		t.Errorf("docs/file-tools.md has %d schema blocks for %d tools", len(docs), len(tools))
	}
	for _, tl := range tools {
		var got any
		if err := json.Unmarshal(tl.InputSchema, &got); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		if want, ok := docs[tl.Name]; !ok {
			t.Errorf("docs/file-tools.md has no schema block for %s", tl.Name)
		} else if got = stripDescriptions(got); !reflect.DeepEqual(got, want) {
			t.Errorf("%s schema differs from docs/file-tools.md:\n got %v\nwant %v", tl.Name, got, want)
		}
	}
	t.Run("spec", func(t *testing.T) {
		spec := schemaBlocks(t, testcorpus.SpecFile(t, "file-tools.md"), "### `(\\w+)`")
		if len(spec) < 5 {
			t.Fatalf("found %d schema blocks in the specification, want the 5 workspace tools", len(spec))
		}
		for name, want := range spec {
			if !reflect.DeepEqual(docs[name], want) {
				t.Errorf("the %s block of docs/file-tools.md differs from the specification's:\n got %v\nwant %v", name, docs[name], want)
			}
		}
	})
}

func TestNoMounts(t *testing.T) {
	for _, tl := range Tools(nil) {
		res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{"path":"x","pattern":"x","glob_pattern":"x","target_directory":"x"}`)})
		if err != nil || !res.IsError {
			t.Errorf("%s without mounts: err %v result %s", tl.Name, err, res.Value)
		}
	}
}

func TestCancelled(t *testing.T) {
	ts := toolSet(writeTree(t, genTree(4, 50, 100)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := ts["grep"].Call(ctx, &tool.Call{Input: json.RawMessage(`{"pattern":"func"}`)})
	if err != nil || !res.IsError || !strings.Contains(string(res.Value), "Cancelled") {
		t.Fatalf("cancelled grep: err %v result %s", err, res.Value)
	}
}

// FuzzTools feeds arbitrary inputs to every tool: no panic, and either an
// input error or a result.
func FuzzTools(f *testing.F) {
	for _, s := range []string{`{}`, `{"path":"a.txt","offset":-1,"limit":1}`, `{"pattern":"a","-C":2,"head_limit":1}`,
		`{"glob_pattern":"**/[a-","target_directory":"/"}`, `{"target_directory":"/repo","ignore_globs":["{a,"]}`,
		`{"path":"../x"}`, `{"pattern":"(?s).","multiline":true,"output_mode":"count"}`, `null`, `[1]`, `{"limit":-5}`} {
		f.Add(s)
	}
	dir := writeTree(f, map[string]string{"a.txt": "alpha\nbeta\n", "d/b.go": "package b\n", ".gitignore": "*.log\n!x.log\n"})
	tools := Tools([]tool.Mount{{Path: "/repo", Dir: dir}})
	f.Fuzz(func(t *testing.T, in string) {
		for _, tl := range tools {
			if tl.Name == "diff" || tl.Name == "list_changes" {
				continue // they run git; covered by their own tests
			}
			res, err := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(in)})
			if err == nil && res.Value == nil {
				t.Fatalf("%s %s: no result", tl.Name, in)
			}
			if err == nil && res.IsError && strings.Contains(string(res.Value), "internal error") {
				t.Fatalf("%s %s: %s", tl.Name, in, res.Value)
			}
		}
	})
}

func ExampleTools() {
	dir, _ := os.MkdirTemp("", "fstools-example-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello\nworld\n"), 0o644)
	for _, tl := range Tools([]tool.Mount{{Path: "/repo", Dir: dir}}) {
		if tl.Name == "read" {
			res, _ := tl.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{"path":"hello.txt","limit":1}`)})
			var text string
			json.Unmarshal(res.Value, &text)
			fmt.Println(text)
		}
	}
	// Output:
	//      1|hello
	//
	// [2 more lines in file. Use offset=2 to continue.]
}
