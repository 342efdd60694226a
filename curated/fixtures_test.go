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
			checkReformatGolden(t, name, out)
			if command == "read" {
				// read -n: the deployment's numbers, as cat -n prints them.
				numbered, ok := Reformat(command, string(in), ReformatOptions{Numbers: true})
				if !ok {
					t.Fatalf("read -n rejected the server's own output:\n%s", in)
				}
				checkReformatGolden(t, name+"_numbers", numbered)
				plain := strings.Split(out.Stdout, "\n")
				for i, l := range strings.Split(numbered.Stdout, "\n") {
					if _, text, ok := strings.Cut(l, "\t"); ok && (i >= len(plain) || text != plain[i]) {
						t.Errorf("read -n line %d %q is not line %d of read", i+1, l, i+1)
					}
				}
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

// checkReformatGolden compares a reformatted output with
// testdata/reformatted/<name>.txt (rewriting it with -update).
func checkReformatGolden(t *testing.T, name string, out Output) {
	t.Helper()
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
}
