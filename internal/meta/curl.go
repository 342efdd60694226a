package meta

import (
	"context"
	"net/http"
	"sort"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// MetaCurl prints the curl command of a call (docs/shell.md#meta-commands).
const MetaCurl = ":curl"

// checkCurl is :curl's Check: a command line follows (its own words are
// checked as that command's, Wraps).
func checkCurl(args []string) error {
	if len(args) == 0 {
		return Usagef("%s needs a command line: %s <command> [arguments…]", MetaCurl, MetaCurl)
	}
	if strings.HasPrefix(args[0], ":") {
		return Usagef("%s shows the request of a tool's call; %s is a meta command, which makes none", MetaCurl, args[0])
	}
	return nil
}

// runCurl is :curl: the command line after it is resolved and parsed as a
// call would be (MetaRun.Prepare), and the curl command that sends exactly
// that request is its value; no call is made.
func runCurl(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	if m.Prepare == nil {
		return MetaResult{}, Usagef("%s cannot prepare a call here", MetaCurl)
	}
	pc, err := m.Prepare(ctx, args)
	if err != nil {
		return MetaResult{}, err
	}
	line, notes := CurlLine(pc, m.Credential, m.CredentialFlag)
	return MetaResult{Value: render.Value{Text: line + "\n", Final: true}, Notes: notes}, nil
}

// CurlLine is the curl command of a prepared call: one line for sh, the
// credential as the shell expression that reads it where it came from
// (never its value), the body escaped as :replay escapes JSON
// (generated.EscapeJSON: termsafe's one JSON form with a command line's
// hazards, the joiners and line separators too, as \u escapes: the same
// JSON, safe on a terminal). notes say what to set first.
func CurlLine(pc *catalog.PreparedCall, cred catalog.CredentialOrigin, fromFlag bool) (string, []string) {
	var notes []string
	w := []string{"curl", "-sS", "-X", pc.Method, shQuote(pc.URL)}
	names := make([]string, 0, len(pc.Header))
	for k := range pc.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range pc.Header[k] {
			w = append(w, "-H", shQuote(http.CanonicalHeaderKey(k)+": "+v))
		}
	}
	if pc.Bearer {
		w = append(w, "-H", `"Authorization: Bearer `+credentialExpr(cred)+`"`)
		if fromFlag {
			notes = append(notes, "the token came from --bearer-token: set "+catalog.TokenVariable+" to it before running this line")
		}
	}
	if pc.BasicUser != "" {
		w = append(w, "-u", shQuote(pc.BasicUser))
		notes = append(notes, "the target URL holds a password: curl asks for it (-u)")
	}
	if pc.Body != nil {
		w = append(w, "--data-raw", shQuote(string(generated.EscapeJSON(pc.Body, false))))
	}
	return strings.Join(w, " "), notes
}

// credentialExpr is the shell expression of a credential's value.
func credentialExpr(c catalog.CredentialOrigin) string {
	switch {
	case c.Var != "":
		return "$" + c.Var
	case c.File != "" && c.JSONKey != "":
		return "$(jq -r ." + c.JSONKey + " " + shQuote(c.File) + ")"
	case c.File != "":
		return "$(cat " + shQuote(c.File) + ")"
	}
	return "$" + catalog.TokenVariable
}

// shQuote quotes s for sh: in single quotes, a quote written '\”.
func shQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
