package meta

import (
	"net/http"
	"strings"
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
	// Invalid UTF-8, a line separator and a tag character (a terminal
	// hides it: a surrogate pair, still JSON) in the body.
	pc.Body = []byte("{\"q\":\"a\xffb\u2028x\U000e0041\"}")
	line, _ := CurlLine(pc, catalog.CredentialOrigin{Var: "K"}, false)
	if want := ` --data-raw '{"q":"a\ufffdb\u2028x\udb40\udc41"}'`; !strings.HasSuffix(line, want) {
		t.Errorf("CurlLine's body:\n got %s\nwant suffix %s", line, want)
	}
}
