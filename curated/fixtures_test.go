package curated

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/reformatted from the current reformatters")

// fixtureDir holds the development server's own tool outputs, written by the
// fstools golden tests: a format change on the server side breaks these
// tests too.
const fixtureDir = "../testdata/toolout"

// TestReformatServerFixtures reformats every captured tool output and
// compares the result (stdout, notes, status) with testdata/reformatted.
func TestReformatServerFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s (%v)", fixtureDir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		command, _, _ := strings.Cut(name, "_")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := Reformat(command, string(in), ReformatOptions{Context: strings.Contains(name, "context")})
			if !ok {
				t.Fatalf("%s: the reformatter rejected the server's own output:\n%s", command, in)
			}
			got := fmt.Sprintf("status: %d\nnotes: %q\n--- stdout\n%s", out.Status, out.Notes, out.Stdout)
			golden := filepath.Join("testdata", "reformatted", name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./curated -run Fixtures -update)", err)
			}
			if got != string(want) {
				t.Errorf("reformatted %s:\n%s\nwant:\n%s", name, got, want)
			}
			// Structure that must hold whatever the goldens say.
			if strings.Contains(out.Stdout, "Found ") && command == "grep" {
				t.Errorf("grep kept its Found line")
			}
			if command == "read" && strings.Contains(out.Stdout, "|") && !strings.Contains(string(in), "||") {
				for _, l := range strings.Split(out.Stdout, "\n") {
					if len(l) > 7 && l[6] == '|' && strings.TrimSpace(l[:6]) != "" {
						t.Errorf("read kept a line-number prefix: %q", l)
					}
				}
			}
		})
	}
}
