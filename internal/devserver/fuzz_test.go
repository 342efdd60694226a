package devserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// FuzzCallBody sends arbitrary bodies and bindings to the call route of a
// validated tool: the server must answer a JSON envelope every time, never
// panic or hang.
func FuzzCallBody(f *testing.F) {
	for _, seed := range []string{
		`{"input":{"path":"a","limit":2}}`, `{"input":{"tags":["x",1]}}`, `{"input":[1]}`, `{`, `nope`, ``,
		`{"sessionId":"ses_x","continuationToken":"a:b"}`, `{"continuationToken":""}`, `{"input":{"limit":1e999}}`,
		`{"input":{"path":"\ud800"}}`, `{"input":null,"sessionId":5}`, `{} {}`,
	} {
		f.Add(seed, "limited")
	}
	f.Add(`{}`, "nope")
	f.Add(`{}`, "boom")
	s, err := devserver.New(testConfig())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body, name string) {
		if name == "" {
			name = "limited"
		}
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/executor/v1/tools/"+url.PathEscape(name), strings.NewReader(body))
		req.RemoteAddr = "127.0.0.1:9"
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		var env struct {
			OK *bool `json:"ok"`
		}
		dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
		if err := dec.Decode(&env); err != nil || env.OK == nil {
			t.Fatalf("%q → %d %q: not an envelope", body, rec.Code, rec.Body.String())
		}
		if *env.OK != (rec.Code == 200) {
			t.Fatalf("%q → %d with ok %v", body, rec.Code, *env.OK)
		}
	})
}
