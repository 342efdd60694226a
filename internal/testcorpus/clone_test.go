package testcorpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// corpusPackages are the packages whose tests read tool definitions,
// results or tool outputs through this locator.
var corpusPackages = []string{
	"./render", "./generated/...", "./curated", "./internal/cli",
	"./internal/devserver/mcpconn", "./internal/devserver/fstools", "./internal/testcorpus",
}

// TestCloneStandsAlone clones the repository at HEAD into an empty
// temporary directory (so no ../shared beside it) and runs the corpus-driven
// tests there outside CI: every "testdata" subtest passes, every "corpus" or
// "spec" sweep is skipped, nothing fails.
func TestCloneStandsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the clone test")
	}
	if os.Getenv("AGSH_IN_CLONE") != "" {
		t.Skip("already inside the clone")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed", tool)
			}
			t.Skipf("%s is not installed; skipping the clone test", tool)
		}
	}
	root := Root(t)
	dir := filepath.Join(t.TempDir(), "agsh")
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", root, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	args := append([]string{"test", "-count=1", "-v", "-run", "Corpus|EchoRoundTrip|SchemasMatchDocs|Golden|ReformatServerFixtures|ResultSamples|SchemasPresent|MappingFixtures"}, corpusPackages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CI", "AGSH_CORPUS", "AGSH_SHARED", "GOFLAGS":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "AGSH_IN_CLONE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the clone: %v\n%s", err, out)
	}
	text := string(out)
	ran := regexp.MustCompile(`(?m)^\s*--- PASS: (\w+)/testdata \(`).FindAllStringSubmatch(text, -1)
	skipped := regexp.MustCompile(`(?m)^\s*--- SKIP: (\w+)/(corpus|spec) \(`).FindAllStringSubmatch(text, -1)
	if len(ran) < 6 {
		t.Errorf("only %d testdata subtests passed in the clone:\n%s", len(ran), text)
	}
	if len(skipped) < len(ran) {
		t.Errorf("%d shared sweeps skipped for %d testdata runs:\n%s", len(skipped), len(ran), text)
	}
	for _, must := range []string{"--- PASS: TestSchemasMatchDocs", "--- PASS: TestGolden", "--- PASS: TestReformatServerFixtures", "--- PASS: TestResultSamples", "--- PASS: TestMappingFixtures"} {
		if !strings.Contains(text, must) {
			t.Errorf("the clone did not run %s:\n%s", strings.TrimPrefix(must, "--- PASS: "), text)
		}
	}
	if strings.Contains(text, "--- FAIL") {
		t.Errorf("failures in the clone:\n%s", text)
	}
}
