package fstools

import (
	"errors"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

func skipTree(t *testing.T) map[string]*tool.Tool {
	return toolSet(writeTree(t, map[string]string{
		"a.go":          "needle one\n",
		"b/c.md":        "needle two\nneedle three\n",
		"b/.secret":     "needle hidden\n",
		".hidden/x.go":  "needle hidden dir\n",
		".gitignore":    "*.gen\nbuild/\n",
		"x.gen":         "needle ignored\n",
		"build/out.txt": "needle ignored dir\n",
		"b/.gitignore":  "!keep.gen\nlocal.txt\n",
		"b/keep.gen":    "needle re-included\n",
		"b/local.txt":   "needle ignored nested\n",
		"local.txt":     "needle not ignored here\n",
		"logo.png":      "needle\x00binary\n",
		"z/deep/e.ts":   "const needle = 1;\n",
		"z/deep/f.tsx":  "<Needle/>\n",
	}))
}

func TestGrepSkipRules(t *testing.T) {
	ts := skipTree(t)
	got := mustText(t, ts, "grep", `{"pattern":"needle","output_mode":"files_with_matches"}`)
	want := "Found 5 files\na.go\nb/c.md\nb/keep.gen\nlocal.txt\nz/deep/e.ts"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGrepFormats(t *testing.T) {
	ts := skipTree(t)
	tests := []struct{ name, in, want string }{
		{"content", `{"pattern":"needle t"}`, "Found 2 matching lines\nb/c.md\n1:needle two\n2:needle three"},
		{"one line", `{"pattern":"one"}`, "Found 1 matching line\na.go\n1:needle one"},
		{"count", `{"pattern":"needle","output_mode":"count"}`, "Found 6 matching lines across 5 files\na.go:1\nb/c.md:2\nb/keep.gen:1\nlocal.txt:1\nz/deep/e.ts:1"},
		{"count one", `{"pattern":"one","output_mode":"count"}`, "Found 1 matching line across 1 file\na.go:1"},
		{"files one", `{"pattern":"one","output_mode":"files_with_matches"}`, "Found 1 file\na.go"},
		{"none", `{"pattern":"haystack"}`, "No matches found"},
		{"none files", `{"pattern":"haystack","output_mode":"files_with_matches"}`, "No matches found"},
		{"path dir", `{"pattern":"needle","path":"/repo/b"}`, "Found 3 matching lines\nb/c.md\n1:needle two\n2:needle three\n\nb/keep.gen\n1:needle re-included"},
		{"path file", `{"pattern":"needle","path":"b/c.md","-A":5}`, "Found 2 matching lines\nb/c.md\n1:needle two\n2:needle three"},
		{"explicit ignored file", `{"pattern":"needle","path":"x.gen"}`, "Found 1 matching line\nx.gen\n1:needle ignored"},
		{"glob", `{"pattern":"needle","glob":"*.{md,ts}"}`, "Found 3 matching lines\nb/c.md\n1:needle two\n2:needle three\n\nz/deep/e.ts\n1:const needle = 1;"},
		{"glob with dir", `{"pattern":"needle","glob":"deep/*"}`, "Found 1 matching line\nz/deep/e.ts\n1:const needle = 1;"},
		{"ignore case", `{"pattern":"NEEDLE","-i":true,"path":"z"}`, "Found 2 matching lines\nz/deep/e.ts\n1:const needle = 1;\n\nz/deep/f.tsx\n1:<Needle/>"},
		{"head_limit content", `{"pattern":"needle","head_limit":2}`, "Found at least 2 matching lines\na.go\n1:needle one\n\nb/c.md\n1:needle two"},
		{"offset content", `{"pattern":"needle","offset":2,"head_limit":2}`, "Found at least 2 matching lines\nb/c.md\n2:needle three\n\nb/keep.gen\n1:needle re-included"},
		{"last page", `{"pattern":"needle","offset":4,"head_limit":2}`, "Found 2 matching lines\nlocal.txt\n1:needle not ignored here\n\nz/deep/e.ts\n1:const needle = 1;"},
		{"exact head_limit", `{"pattern":"needle","head_limit":6}`, "Found 6 matching lines\na.go\n1:needle one\n\nb/c.md\n1:needle two\n2:needle three\n\nb/keep.gen\n1:needle re-included\n\nlocal.txt\n1:needle not ignored here\n\nz/deep/e.ts\n1:const needle = 1;"},
		{"offset past", `{"pattern":"needle","offset":6}`, "No matches found"},
		{"head_limit zero", `{"pattern":"needle t","head_limit":0}`, "Found 2 matching lines\nb/c.md\n1:needle two\n2:needle three"},
		{"head_limit files", `{"pattern":"needle","output_mode":"files_with_matches","head_limit":2,"offset":1}`, "Found at least 2 files\nb/c.md\nb/keep.gen"},
		{"head_limit count", `{"pattern":"needle","output_mode":"count","head_limit":1,"offset":1}`, "Found at least 2 matching lines across 1 file\nb/c.md:2"},
		{"context page", `{"pattern":"needle","path":"b/c.md","-B":1,"offset":1}`, "Found 1 matching line\nb/c.md\n1-needle two\n2:needle three"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustText(t, ts, "grep", tt.in); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestGrepTypes(t *testing.T) {
	files := map[string]string{}
	exts := []string{".go", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".py", ".rs", ".java",
		".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".md", ".markdown", ".json", ".yaml", ".yml", ".sh", ".bash", ".txt"}
	for _, e := range exts {
		files["f"+e] = "hit\n"
	}
	ts := toolSet(writeTree(t, files))
	for typ, want := range map[string]string{
		"go": "f.go", "js": "f.cjs f.js f.jsx f.mjs", "ts": "f.cts f.mts f.ts f.tsx", "py": "f.py",
		"rust": "f.rs", "java": "f.java", "c": "f.c f.h", "cpp": "f.cc f.cpp f.cxx f.h f.hh f.hpp",
		"md": "f.markdown f.md", "json": "f.json", "yaml": "f.yaml f.yml", "sh": "f.bash f.sh",
	} {
		got := mustText(t, ts, "grep", `{"pattern":"hit","output_mode":"files_with_matches","type":"`+typ+`"}`)
		_, list, _ := strings.Cut(got, "\n")
		if strings.ReplaceAll(list, "\n", " ") != want {
			t.Errorf("type %s: got %q, want %q", typ, list, want)
		}
	}
}

func TestGrepMultiline(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{
		"m.go": "func a() {\n\treturn 1\n}\nfunc b() {}\nvar x = \"func\"\n",
	}))
	tests := []struct{ in, want string }{
		{`{"pattern":"func a.*?\\}","multiline":true}`, "Found 3 matching lines\nm.go\n1:func a() {\n2:\treturn 1\n3:}"},
		{`{"pattern":"func a.*?\\}"}`, "No matches found"},
		{`{"pattern":"\\{\\s+return"}`, "No matches found"},
		{`{"pattern":"\\{\\s+return","multiline":true,"-A":1}`, "Found 2 matching lines\nm.go\n1:func a() {\n2:\treturn 1\n3-}"},
		{`{"pattern":"}\\n","multiline":true,"output_mode":"count"}`, "Found 2 matching lines across 1 file\nm.go:2"},
		{`{"pattern":"^func","multiline":true}`, "Found 2 matching lines\nm.go\n1:func a() {\n4:func b() {}"},
		{`{"pattern":"[^x]+b","output_mode":"count"}`, "Found 1 matching line across 1 file\nm.go:1"},
	}
	for _, tt := range tests {
		if got := mustText(t, ts, "grep", tt.in); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.in, got, tt.want)
		}
	}
}

func TestGrepErrors(t *testing.T) {
	ts := skipTree(t)
	for in, want := range map[string]string{
		`{"pattern":"("}`:                       "[pattern]: invalid regular expression: missing closing ): `(`",
		`{"pattern":"x","type":"cobol"}`:        `[type]: unknown type "cobol" (known: go, js, ts, py, rust, java, c, cpp, md, json, yaml, sh)`,
		`{"pattern":"x","output_mode":"lines"}`: "[output_mode]: must be one of content, files_with_matches, count",
		`{"pattern":"x","-A":-1}`:               "[-A]: must be at least 0",
		`{"pattern":7}`:                         "[pattern]: must be a string",
		`{"pattern":"x","-i":"yes"}`:            "[-i]: must be a boolean",
		`{"pattern":"x","head_limit":1.5}`:      "[head_limit]: must be an integer",
	} {
		o := run(t, ts, "grep", in)
		var ie *tool.InputError
		if !errors.As(o.err, &ie) || o.err.Error() != want {
			t.Errorf("grep %s: err %v, want input error %q", in, o.err, want)
		}
	}
	for in, want := range map[string]string{
		`{"pattern":"x","path":"/nope"}`:     "Path is outside the workspace: /nope",
		`{"pattern":"x","path":"missing"}`:   "No such file or directory: /repo/missing",
		`{"pattern":"x","path":"logo.png"}`:  "Binary file: /repo/logo.png",
		`{"pattern":"x","path":"../../etc"}`: "Path is outside the workspace: /etc",
	} {
		if o := run(t, ts, "grep", in); !o.isError || o.text != want {
			t.Errorf("grep %s = %q (isError %v), want %q", in, o.text, o.isError, want)
		}
	}
}

func TestGrepOtherMount(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{"a.txt": "hit\n"}),
		tool.Mount{Path: "/data", Dir: writeTree(t, map[string]string{"b.txt": "hit\n"})})
	if got, want := mustText(t, ts, "grep", `{"pattern":"hit","path":"/","output_mode":"files_with_matches"}`), "Found 2 files\n/data/b.txt\na.txt"; got != want {
		t.Errorf("grep over / = %q, want %q", got, want)
	}
	if got, want := mustText(t, ts, "grep", `{"pattern":"hit","path":"/data"}`), "Found 1 matching line\n/data/b.txt\n1:hit"; got != want {
		t.Errorf("grep over /data = %q, want %q", got, want)
	}
}

// TestGrepPathOrder: files come in the order their paths sort, as the
// paths of `grep -rl | sort` do, even where a directory's name is a prefix of
// its siblings' ("a/" after "a-b/" and "a.txt").
func TestGrepPathOrder(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{
		"a/b.txt":   "word\n",
		"a-b/c.txt": "word\n",
		"a.txt":     "word\n",
		"a0":        "word\n",
		"B.txt":     "word\n",
	}))
	want := "Found 5 files\nB.txt\na-b/c.txt\na.txt\na/b.txt\na0"
	if got := mustText(t, ts, "grep", `{"pattern":"word","output_mode":"files_with_matches"}`); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	want = "Found 5 matching lines across 5 files\nB.txt:1\na-b/c.txt:1\na.txt:1\na/b.txt:1\na0:1"
	if got := mustText(t, ts, "grep", `{"pattern":"word","output_mode":"count"}`); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
