package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/command"
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
	a := newApp(ios, ttySafeEnv{}, command.Globals{Values: map[string]string{"--bearer-token": "tok&en-1234"}})
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

// A redirect from https:// to plain http:// is not followed (the credential
// would go in clear), except to a loopback host.
func TestHTTPClientRefusesDowngrade(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "plain "+r.Header.Get("Authorization"))
	}))
	defer plain.Close()
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer tls.Close()
	ios, _, _ := iostreams.Test("")
	hc := newApp(ios, ttySafeEnv{}, command.Globals{}).httpClient()
	hc.Transport.(*http.Transport).TLSClientConfig = tls.Client().Transport.(*http.Transport).TLSClientConfig

	_, err := hc.Get(tls.URL + "/?to=" + url.QueryEscape("http://user:pw@deploy.example/x"))
	var ue *url.Error // agsh's messages show what it wraps (catalog's causeText)
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if err == nil || !strings.Contains(err.Error(), "it redirected from https:// to http://deploy.example/x; refused") ||
		strings.Contains(err.Error(), "pw@") {
		t.Errorf("downgrade: err = %v", err)
	}
	resp, err := hc.Get(tls.URL + "/?to=" + url.QueryEscape(plain.URL+"/y"))
	if err != nil {
		t.Fatalf("loopback: %v", err)
	}
	resp.Body.Close()
}
