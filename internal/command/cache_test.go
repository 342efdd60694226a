package command

import (
	"encoding/json"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

// TestCacheBuildsOnce: a detail's command is built once and reused.
func TestCacheBuildsOnce(t *testing.T) {
	d := &catalog.ToolDetail{Name: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}
	var c Cache
	first, err := c.For(d.Name, d)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.For(d.Name, d)
	if first != again {
		t.Fatal("the command was built twice")
	}
	other, _ := c.For("y", &catalog.ToolDetail{Name: "y", InputSchema: d.InputSchema})
	if other == first {
		t.Fatal("two details share a command")
	}
}
