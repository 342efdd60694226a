package generated_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

func Example() {
	schema := json.RawMessage(`{
		"type": "object",
		"properties": {
			"org_slug": {"type": "string", "description": "Organization"},
			"perPage": {"type": "integer", "default": 30},
			"output": {"type": "string", "enum": ["short", "long"]},
			"telemetry": {"type": "object", "properties": {"context": {"type": "string"}}},
			"labels": {"type": "array", "items": {"type": "string"}},
			"dryRun": {"type": "boolean"}
		},
		"required": ["org_slug"]
	}`)
	cmd, err := generated.Build(schema, generated.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range cmd.Flags {
		fmt.Println(strings.TrimSpace(f.Name + " " + f.Placeholder))
	}
	p, err := cmd.Parse([]string{"--org-slug", "acme", "--per-page", "50", "--output-2=long",
		"--telemetry-context", "ci", "--labels", "a", "--labels", "b", "--dry-run", "--output", "json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := cmd.Validate(p); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(p.JSON()))
	fmt.Println(p.Globals)

	_, err = cmd.Parse([]string{"--per-pgae", "5"})
	fmt.Println(err)
	// Output:
	// --org-slug <string>
	// --per-page <integer>
	// --output-2 <short|long>
	// --telemetry-context <string>
	// --labels <string>
	// --dry-run
	// {"dryRun":true,"labels":["a","b"],"org_slug":"acme","output":"long","perPage":50,"telemetry":{"context":"ci"}}
	// [{--output json}]
	// unknown flag --per-pgae (did you mean --per-page?); flags: --org-slug, --per-page, --output-2, --telemetry-context, --labels, --dry-run
}

func ExampleSuggest() {
	fmt.Println(generated.Suggest("list_isues", []string{"list_issues", "get_issue", "list_pulls"}))
	// Output: [list_issues]
}
