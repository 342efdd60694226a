package generated_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/testcorpus"
)

var updateMapping = flag.Bool("update-mapping", false, "rewrite testdata/mapping.golden from testdata/schemas/mapping")

// TestMappingFixtures pins the flags docs/mapping.md gives each of the
// repository's rule fixtures (testdata/schemas/mapping: one file per rule or
// corpus shape) in testdata/mapping.golden, so that every rule has a
// definite, reviewed answer beside the sweeps' invariants.
func TestMappingFixtures(t *testing.T) {
	files, _ := filepath.Glob(testcorpus.Testdata(t, "schemas", "mapping", "*.json"))
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/schemas/mapping")
	}
	var b strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var def struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c, err := generated.Build(def.InputSchema, generated.BuildOptions{})
		if err != nil {
			t.Fatalf("%s: Build: %v", f, err)
		}
		fmt.Fprintf(&b, "== %s\n", strings.TrimSuffix(filepath.Base(f), ".json"))
		if len(c.Flags) == 0 {
			b.WriteString("(no options)\n")
		}
		for _, fl := range c.Flags {
			line := strings.TrimSpace(fl.Name + " " + fl.Placeholder)
			var notes []string
			notes = append(notes, fl.Type)
			if fl.Required {
				notes = append(notes, "required")
			}
			if fl.Repeatable {
				notes = append(notes, "repeatable")
			}
			if fl.Renamed {
				notes = append(notes, "renamed")
			}
			if fl.Shape != "" {
				notes = append(notes, "shape "+fl.Shape)
			}
			if fl.Format != "" {
				notes = append(notes, "format "+fl.Format)
			}
			if fl.Default != nil {
				notes = append(notes, "default "+string(fl.Default))
			}
			for _, k := range fl.Constraints {
				notes = append(notes, k.Keyword+"="+string(k.Value))
			}
			fmt.Fprintf(&b, "%-40s %-28s %s\n", line, fl.Property(), strings.Join(notes, ", "))
		}
	}
	golden := testcorpus.Testdata(t, "mapping.golden")
	if *updateMapping {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./generated -run TestMappingFixtures -update-mapping writes it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the flags of testdata/schemas/mapping differ from testdata/mapping.golden:\n%s", lineDiff(string(want), got))
	}
}

// lineDiff lists the lines only one side has.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d\n want %q\n  got %q\n", i+1, a, c)
		}
	}
	return b.String()
}
