package catalog

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fixedTransport answers every request with status and body, no network.
type fixedTransport struct {
	status int
	body   []byte
}

func (f fixedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: f.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(f.body)), ContentLength: -1, Request: r}, nil
}

// FuzzAnswers feeds any body with any status to every route: never a
// panic, and every failure an *Error whose text is non-empty and free of
// the token.
func FuzzAnswers(f *testing.F) {
	seeds := []string{
		`{"ok":true,"tools":[{"name":"a","source":"x"}]}`,
		`{"ok":true,"tool":{"name":"a","inputSchema":{"type":"object"}}}`,
		`{"ok":true,"sessions":[{"sessionId":"s","updatedAt":"2026-11-29T10:00:00Z"}]}`,
		`{"ok":true,"toolName":"a","result":{"content":[{"type":"text","text":"x"}]}}`,
		`{"ok":false,"error":"invalid_input","issues":[{"path":["a",1],"message":"m"}]}`,
		`{"ok":false,"error":{"code":"x"},"available":[1,2]}`,
		`{"error":"Not Found","statusCode":404}`,
		`<html>` + testToken, `{"tools":[`, `null`, `[]`, `"str"`, `{"ok":true,"agents":[{"slug":"a"}]}`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), []int{200, 400, 404, 409, 401, 503}[i%6])
	}
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		if status < 100 || status > 599 {
			status = 200
		}
		hc := &http.Client{Transport: fixedTransport{status: status, body: body}}
		opts := fastOptions()
		opts.HTTPClient = hc
		opts.RetryBackoff = []time.Duration{}
		c, err := New("http://127.0.0.1:1/agent", opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		check := func(err error) {
			if err == nil {
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not *Error: %v", err, err)
			}
			if e.Error() == "" || strings.Contains(e.Error(), testToken) {
				t.Fatalf("bad text %q", e.Error())
			}
			_ = e.ExitCode()
		}
		_, err = c.Tools(ctx, Binding{})
		check(err)
		_, err = c.Tool(ctx, "read", Binding{SessionID: "s"})
		check(err)
		_, err = c.Call(ctx, "read", nil, Binding{})
		check(err)
		_, err = c.Info(ctx)
		check(err)
		_, _, err = c.ToolBound(ctx, "read", Binding{})
		check(err)
	})
}

// FuzzParseTarget: never a panic; a URL result always builds a client.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:39400/executor", "localhost:3000", "name", "", "ftp://x",
		"http://u:p@[::1]:80/a/", "a b", "https://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := ParseTarget(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.ExitCode() != ExitUsage {
				t.Fatalf("ParseTarget(%q): %v", s, err)
			}
			return
		}
		if (tg.URL == "") == (tg.Name == "") {
			t.Fatalf("ParseTarget(%q) = %+v: exactly one must be set", s, tg)
		}
		if tg.URL != "" {
			if _, err := New(tg.URL, Options{}); err != nil {
				t.Fatalf("New(%q): %v", tg.URL, err)
			}
		}
	})
}
