package catalog

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestTokenNeverInErrors has the server echo the token everywhere it can.
func TestTokenNeverInErrors(t *testing.T) {
	tok := testToken
	bodies := []struct {
		status int
		ct     string
		body   string
	}{
		{401, "application/json", `{"ok":false,"error":"unauthorized","message":"token ` + tok + ` is not valid"}`},
		{403, "application/json", `{"ok":false,"error":"forbidden","message":"Bearer ` + tok + `"}`},
		{404, "application/json", `{"ok":false,"error":"unknown_tool","available":["` + tok + `"]}`},
		{400, "application/json", `{"ok":false,"error":"invalid_input","issues":[{"path":["` + tok + `"],"message":"` + tok + `"}]}`},
		{409, "application/json", `{"ok":false,"error":"session_busy","sessionId":"` + tok + `"}`},
		{418, "application/json", `{"ok":false,"error":"` + tok + `","message":"` + tok + `"}`},
		{500, "text/plain", "Authorization: Bearer " + tok + "\n"},
		{200, "text/html", "<p>" + tok + "</p>"},
		{200, "text/html", strings.Repeat("x", snippetLen-5) + tok}, // cut inside the token
		{200, "application/json", `{"tools":"` + tok + `"}`},
	}
	for _, b := range bodies {
		c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", b.ct)
			w.WriteHeader(b.status)
			_, _ = w.Write([]byte(b.body))
		})
		_, cerr := c.Call(ctxT(t), "read", json.RawMessage(`{}`), Binding{})
		_, terr := c.Tools(ctxT(t), Binding{})
		if terr == nil {
			t.Fatalf("status %d: no error", b.status)
		}
		for _, e := range []error{cerr, terr} {
			if e == nil {
				continue
			}
			ce := asError(t, e)
			all := ce.Error() + ce.Message + strings.Join(ce.Available, "") + ce.SessionID + ce.Code()
			for _, is := range ce.Issues {
				all += is.Message
				for _, p := range is.Path {
					all += p.(string)
				}
			}
			if strings.Contains(all, tok) || strings.Contains(all, tok[:8]) {
				t.Errorf("status %d: token in %q", b.status, all)
			}
		}
	}
}

func TestSnippet(t *testing.T) {
	tests := []struct{ in, secret, want string }{
		{"", "", `""`},
		{"plain", "", `"plain"`},
		{"a\"b\\c\n\t\x00\x1b", "", `"a\"b\\c\n\t\x00\x1b"`},
		{"bad \xff byte", "", `"bad \xff byte"`},
		{strings.Repeat("é", 40), "", `"` + strings.Repeat("é", 32) + `…"`},
		{strings.Repeat("a", 63) + "é", "", `"` + strings.Repeat("a", 63) + `…"`},
		{"key=abcd1234 end", "abcd1234", `"key=*** end"`},
		{strings.Repeat("-", 60) + "abcd1234", "abcd1234", `"` + strings.Repeat("-", 60) + `***"`},
		{strings.Repeat("-", 60) + "abcd12xyz", "abcd1234", `"` + strings.Repeat("-", 60) + `…"`},
	}
	for _, tt := range tests {
		if got := snippet([]byte(tt.in), tt.secret); got != tt.want {
			t.Errorf("snippet(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestUserinfoNeverPrinted(t *testing.T) {
	c, srv := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ops" || p != "pa55word" {
			t.Errorf("basic auth = %q %q %v", u, p, ok)
		}
		w.WriteHeader(502)
	})
	_ = c
	cu, err := New(strings.Replace(srv.URL, "http://", "http://ops:pa55word@", 1)+"/a", fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	cu.opts.BearerToken = ""
	_, err = cu.Info(context.Background())
	e := asError(t, err)
	if strings.Contains(e.Error(), "pa55word") || strings.Contains(cu.Target(), "ops") {
		t.Errorf("userinfo printed: %q / %q", e.Error(), cu.Target())
	}
}
