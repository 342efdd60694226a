package devserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// A server with one agent and one tool, called over HTTP.
func ExampleNew() {
	greet := &tool.Tool{
		Name:        "greet",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Effect:      "read",
		Validate:    true,
		Call: func(_ context.Context, c *tool.Call) (tool.Result, error) {
			var in struct{ Name string }
			if err := json.Unmarshal(c.Input, &in); err != nil {
				return tool.Result{}, err
			}
			return tool.Text("hello, " + in.Name), nil
		},
	}
	s, err := devserver.New(devserver.Config{
		Addr:   "127.0.0.1:0",
		Agents: []devserver.AgentConfig{{Slug: "executor", Name: "demo", Tools: []*tool.Tool{greet}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Start(); err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	for _, input := range []string{`{"name":"operator"}`, `{}`} {
		resp, err := http.Post(s.AgentURL("executor")+"/v1/tools/greet", "application/json",
			strings.NewReader(`{"input":`+input+`}`))
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			Result  any    `json:"result"`
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(body, &out)
		fmt.Println(strings.TrimSpace(fmt.Sprintln(resp.StatusCode, out.Result, out.Error, out.Message)))
	}
	// Output:
	// 200 hello, operator
	// 400 <nil> invalid_input invalid input for greet: name: required
}
