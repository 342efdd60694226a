package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// syncBuf is a bytes.Buffer safe for the parallel requests of a run.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// The wire log: requests and answers with the credential masked wherever
// it is (the header, an answer that echoes it, across the clip of a long
// body), bytes escaped; nothing for a context without a writer.
func TestDebugTransport(t *testing.T) {
	// The token ends a little past the 2 KiB cut of the answer's body.
	long := strings.Repeat("x", debugBodyCap-len(`{"ok":true,"tool":{"name":"`)-10) + testToken + "\x1b[2J\u202e tail"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		b, _ := json.Marshal(map[string]any{"ok": true, "tool": map[string]any{"name": long, "inputSchema": map[string]any{}}})
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	opts := fastOptions()
	opts.HTTPClient = NewHTTPClientWith(HTTPPolicy{Secrets: []string{testToken}, Debug: true})
	c, err := New(srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuf
	if _, err := c.Tool(WithDebug(context.Background(), &log), "x", Binding{}); err != nil {
		t.Fatal(err)
	}
	out := log.String()
	for _, want := range []string{
		"agsh: api: #1 > GET " + srv.URL + "/v1/tools/x\n",
		"agsh: api: #1 > Authorization: Bearer ***\n",
		"agsh: api: #1 < 200 OK in ",
		"agsh: api: #1 < X-Echo: Bearer ***\n",
		" bytes shown)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the log:\n%s", want, out)
		}
	}
	for k := minSecret; k <= len(testToken); k++ {
		if strings.Contains(out, testToken[:k]) {
			t.Fatalf("%d bytes of the token in the log:\n%s", k, out)
		}
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x202e {
			t.Fatalf("raw %U in the log", r)
		}
	}

	// No writer, no log: completion's requests.
	log = syncBuf{}
	if _, err := c.Tool(WithDebug(context.Background(), nil), "x", Binding{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Tool(context.Background(), "x", Binding{}); err != nil || log.String() != "" {
		t.Errorf("logged without a writer: %q %v", log.String(), err)
	}
}

func TestDebugTextAndHeaders(t *testing.T) {
	for in, want := range map[string]string{
		"a\nb\tc":     `a\nb\tc`,
		"\x1b[31m":    `\x1b[31m`,
		"\xff":        `\xff`,
		"x\u202ey":    `x\u202ey`,
		"zero\u200bw": `zero\u200bw`,
		"é 東京 emoji🎉": "é 東京 emoji🎉",
	} {
		if got := debugText(in); got != want {
			t.Errorf("debugText(%q) = %q, want %q", in, got, want)
		}
	}
	tr := newDebugTransport(nil, []string{"hunter22"})
	lines := tr.headerLines("> ", http.Header{"Proxy-Authorization": {"Basic dXNlcjpwYXNz"},
		"Authorization": {"Bearer hunter22"}, "X-Note": {"has hunter22 in it"}})
	want := []string{"> Authorization: Bearer ***", "> Proxy-Authorization: Basic ***", "> X-Note: has *** in it"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("headers %q, want %q", lines, want)
	}
	if got := clipBody([]byte(strings.Repeat("é", debugBodyCap)), 2*debugBodyCap); !strings.HasSuffix(got, "… (2048 of 4096 bytes shown)") {
		t.Errorf("clip: %q", got[len(got)-40:])
	}
}
