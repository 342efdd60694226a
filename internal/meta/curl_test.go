package meta

import (
	"net/http"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

func TestCurlLine(t *testing.T) {
	pc := &catalog.PreparedCall{Method: "POST", URL: "http://h:1/a/v1/tools/x?sessionId=ses_1",
		Header: http.Header{"Accept": {"application/json"}, "Content-Type": {"application/json"}},
		Bearer: true, Body: []byte("{\"input\":{\"q\":\"it's \u202e\u200b\u0085\x7f\"}}")}
	for _, c := range []struct {
		from catalog.CredentialOrigin
		flag bool
		want string
		note bool
	}{
		{catalog.CredentialOrigin{Var: "CURSOR_API_KEY"}, false, `"Authorization: Bearer $CURSOR_API_KEY"`, false},
		{catalog.CredentialOrigin{Var: catalog.TokenVariable}, true, `"Authorization: Bearer $AGENT_SHELL_BEARER_TOKEN"`, true},
		{catalog.CredentialOrigin{File: "/k ey"}, false, `"Authorization: Bearer $(cat '/k ey')"`, false},
		{catalog.CredentialOrigin{File: "/a.json", JSONKey: "accessToken"}, false, `"Authorization: Bearer $(jq -r .accessToken /a.json)"`, false},
	} {
		line, notes := CurlLine(pc, c.from, c.flag)
		want := `curl -sS -X POST 'http://h:1/a/v1/tools/x?sessionId=ses_1' -H 'Accept: application/json' ` +
			`-H 'Content-Type: application/json' -H ` + c.want +
			` --data-raw '{"input":{"q":"it'\''s \u202e\u200b\u0085\u007f"}}'`
		if line != want || (len(notes) > 0) != c.note {
			t.Errorf("CurlLine(%+v):\n got %s %q\nwant %s", c.from, line, notes, want)
		}
	}
	if got := EscapeJSON("a\xffb\u2028"); got != `a\ufffdb\u2028` {
		t.Errorf("EscapeJSON = %q", got)
	}
	// A tag character is hidden by a terminal: a surrogate pair, still JSON.
	if got := EscapeJSON("\"x\U000e0041\""); got != `"x\udb40\udc41"` {
		t.Errorf("EscapeJSON(tag) = %q", got)
	}
}
