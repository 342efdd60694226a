package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agsh-dev/agsh/catalog"
)

// A one-shot call: the detail and the latest session in parallel, then the
// call bound to that session, then the session line.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /executor/v1/sessions":
			_, _ = io.WriteString(w, `{"ok":true,"sessions":[{"sessionId":"ses_a99d","updatedAt":"2026-11-29T10:05:00Z"}]}`)
		case "GET /executor/v1/tools/read":
			_, _ = io.WriteString(w, `{"ok":true,"tool":{"name":"read","effect":"read"}}`)
		case "POST /executor/v1/tools/read":
			_, _ = io.WriteString(w, `{"ok":true,"toolName":"read","callId":"c1","result":"hello","sessionId":"ses_a99d"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()

	ctx := context.Background()
	c, err := catalog.New(srv.URL+"/executor/", catalog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	detail, bind, err := c.ToolBound(ctx, "read", catalog.Binding{})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Call(ctx, detail.Name, json.RawMessage(`{"path":"README.md"}`), bind)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(detail.Effect, string(res.Result))
	fmt.Println(catalog.SessionLine(bind, res.SessionID))
	// Output:
	// read "hello"
	// → ses_a99d
}

// Errors carry the exit status and code that cmd/agsh reports.
func ExampleError() {
	_, err := catalog.ParseTarget("127.0.0.1:39400")
	var e *catalog.Error
	if errors.As(err, &e) {
		fmt.Printf("agsh: %s (exit %d, %s)\n", e, e.ExitCode(), e.Code())
	}
	// Output:
	// agsh: target "127.0.0.1:39400" has no scheme; did you mean http://127.0.0.1:39400/<agent>? (exit 2, usage)
}
