package generated

import (
	"reflect"
	"testing"
)

// TestNextPageArgs: the cursor flag is found by its property name (nested
// page.cursor included), and the next page's words drop agsh's own options
// and the previous cursor.
func TestNextPageArgs(t *testing.T) {
	c := mustBuild(t, `{"type":"object","properties":{"status":{"type":"string"},"page":{"type":"object","properties":{"size":{"type":"integer"},"cursor":{"type":"string"}}}}}`, BuildOptions{})
	f := c.CursorFlag()
	if f == nil || f.Name != "--page-cursor" {
		t.Fatalf("CursorFlag = %v", f)
	}
	for _, tt := range []struct{ args, want []string }{
		{[]string{"--status", "Alert"}, []string{"--status", "Alert", "--page-cursor", "4102279"}},
		{[]string{"--status", "Alert", "--page-cursor", "1", "--output", "json", "--target=x"}, []string{"--status", "Alert", "--page-cursor", "4102279"}},
		{[]string{"--page-cursor=1", "--page-size", "2"}, []string{"--page-size", "2", "--page-cursor", "4102279"}},
		// The input stays (but standard input, read once); the cursor flag
		// after it overrides its cursor member.
		{[]string{"--input-json", `{"status":"Alert"}`, "--output", "json"}, []string{"--input-json", `{"status":"Alert"}`, "--page-cursor", "4102279"}},
		{[]string{"--input-json=@in.json"}, []string{"--input-json", "@in.json", "--page-cursor", "4102279"}},
		{[]string{"--input-json", "@-", "--status", "Alert"}, []string{"--status", "Alert", "--page-cursor", "4102279"}},
	} {
		if got := c.NextPageArgs(tt.args, f, "4102279"); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("NextPageArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
	if got := c.NextPageArgs(nil, f, "-x"); !reflect.DeepEqual(got, []string{"--page-cursor=-x"}) {
		t.Errorf("a cursor starting with '-': %q", got)
	}
	for schema, want := range map[string]string{
		`{"properties":{"pageToken":{"type":"string"}}}`:                   "--page-token",
		`{"properties":{"next_cursor":{"type":"string"}}}`:                 "--next-cursor",
		`{"properties":{"after":{"type":"string"}}}`:                       "",
		`{"properties":{"cursor":{"type":"boolean"}}}`:                     "",
		`{"properties":{"q":{"type":"string"},"page":{"type":"integer"}}}`: "",
	} {
		got := ""
		if f := mustBuild(t, schema, BuildOptions{}).CursorFlag(); f != nil {
			got = f.Name
		}
		if got != want {
			t.Errorf("%s: CursorFlag %q, want %q", schema, got, want)
		}
	}
}
