package generated

import (
	"strings"
	"testing"
)

func TestBind(t *testing.T) {
	c := mustBuild(t, `{"properties":{"path":{"type":"string"},"offset":{"type":"integer"},"paths":{"type":"array","items":{"type":"string"}},
		"ignore":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer"}},"required":["path","limit"]}`,
		BuildOptions{Omit: []string{"path", "offset", "paths"}, Rename: map[string]string{"ignore": "Ignore Globs"}})
	if got := strings.Join(c.Required, ","); got != "path,limit" {
		t.Errorf("Required = %s", got)
	}
	if got := strings.Join(c.FlagNames(), ","); got != "--ignore-globs,--limit" {
		t.Errorf("flags = %s", got)
	}
	if f := c.Omitted("offset"); f == nil || f.Type != "integer" || f.Name != "<offset>" || c.Omitted("limit") != nil {
		t.Errorf("Omitted(offset) = %+v", f)
	}
	p, err := c.Parse([]string{"--limit", "3"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][2]string{{"path", "-f"}, {"offset", "-5"}, {"paths", "a"}, {"paths", "b"}} {
		if err := c.Bind(p, b[0], b[1]); err != nil {
			t.Fatalf("Bind(%s, %s): %v", b[0], b[1], err)
		}
	}
	if got := string(p.JSON()); got != `{"limit":3,"offset":-5,"path":"-f","paths":["a","b"]}` {
		t.Errorf("JSON = %s", got)
	}
	errs := []struct{ prop, text, want string }{
		{"offset", "x", `invalid value "x" for <offset>: expected an integer`},
		{"limit", "1", `generated: "limit" is not an omitted property of this command`},
	}
	for _, e := range errs {
		err := c.Bind(p, e.prop, e.text)
		if err == nil || err.Error() != e.want {
			t.Errorf("Bind(%s, %s) = %v, want %s", e.prop, e.text, err, e.want)
		}
	}
	if err := c.Validate(p); err != nil {
		t.Errorf("Validate: %v", err)
	}
}
