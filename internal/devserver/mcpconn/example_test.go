package mcpconn_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agsh-dev/agsh/internal/devserver/mcpconn"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// Start the connections, list an agent's tools and call one: the answer is
// the MCP result as the datadog server sent it.
func Example() {
	set, err := mcpconn.Start(context.Background(), mcpconn.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer set.Close()
	for _, t := range set.Tools("executor") {
		fmt.Printf("%s %q read-only=%v\n", t.Name, t.Title, t.ReadOnly())
	}
	get := set.Tools("executor")[0]
	res, err := get.Call(context.Background(), &tool.Call{Input: json.RawMessage(`{"id":4101266}`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	var r struct {
		StructuredContent struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"structuredContent"`
	}
	_ = json.Unmarshal(res.Value, &r)
	fmt.Println(r.StructuredContent.Name, r.StructuredContent.Status, res.IsError)
	// Output:
	// datadog_get_monitor "Get monitor" read-only=true
	// datadog_list_monitors "List monitors" read-only=true
	// datadog_mute_monitor "Mute monitor" read-only=false
	// api error rate is high OK false
}
