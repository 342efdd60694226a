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

// TestSchemasMatchSpec compares each schema, descriptions aside, with the
// spec's JSON block kept in the repository (testdata/filetools/<tool>.json);
// the "spec" subtest checks those blocks against spec/file-tools.md beside
// the repository (skipped outside CI when absent).
func TestSchemasMatchSpec(t *testing.T) {
	byName := map[string]json.RawMessage{}
	for _, tl := range Tools(nil) {
		byName[tl.Name] = tl.InputSchema
	}
	files, _ := filepath.Glob(testcorpus.Testdata(t, "filetools", "*.json"))
	if len(files) != 5 {
		t.Fatalf("found %d schema blocks in testdata/filetools, want 5", len(files))
	}
	blocks := map[string][]byte{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks[name] = b
		var want, got any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := json.Unmarshal(byName[name], &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(stripDescriptions(got), stripDescriptions(want)) {
			t.Errorf("%s schema differs from the spec:\n got %s\nwant %s", name, byName[name], b)
		}
	}
	t.Run("spec", func(t *testing.T) {
		spec, err := os.ReadFile(filepath.Join(testcorpus.Shared(t, "spec"), "file-tools.md"))
		if err != nil {
			t.Fatal(err)
		}
		found := regexp.MustCompile("(?s)### `(\\w+)`[^\\n]*\\n```json\\n(.*?)```").FindAllStringSubmatch(string(spec), -1)
		if len(found) != len(blocks) {
			t.Fatalf("found %d schema blocks in the spec, testdata/filetools holds %d", len(found), len(blocks))
		}
		for _, b := range found {
			if string(blocks[b[1]]) != b[2] {
				t.Errorf("testdata/filetools/%s.json is not the spec's block (copy it again):\n%s", b[1], b[2])
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
