package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

func TestSecretForms(t *testing.T) {
	cases := []struct {
		secret string
		want   []string
	}{
		{"sk-plain-1234", []string{"sk-plain-1234"}},
		{"a&b<c>d", []string{"a&b<c>d", `a\u0026b\u003cc\u003ed`}},
		{"ab/cd+ef=", []string{"ab/cd+ef=", `ab\/cd+ef=`}},
		{`qu"ote`, []string{`qu\"ote`}},
		{`back\slash`, []string{`back\\slash`}},
	}
	for _, c := range cases {
		if got := secretForms(c.secret); !reflect.DeepEqual(got, c.want) {
			t.Errorf("secretForms(%q) = %q, want %q", c.secret, got, c.want)
		}
	}
}

// Every answer read through the run's client has the credential masked,
// raw or JSON-escaped.
func TestHTTPClientMasksCredential(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"a":"tok&en-1234","b":"tok\u0026en-1234","c":"tok&en-12"}`)
	}))
	defer srv.Close()
	ios, _, _ := iostreams.Test("")
	a := newApp(ios, ttySafeEnv{}, globals{token: "tok&en-1234"})
	resp, err := a.httpClient().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if want := `{"a":"***","b":"***","c":"tok&en-12"}`; string(b) != want {
		t.Errorf("body = %s, want %s", b, want)
	}
}
