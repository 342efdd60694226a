package command

import (
	"errors"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
)

// advice is what agsh tells its user to do after a refusal from the
// deployment, by error code: catalog says what happened, the command line
// names its own flags and variables.
var advice = map[string]string{
	catalog.CodeSessionBusy:              "; wait for it to finish, or pass --session <another id>",
	catalog.CodeWorkspaceUnavailable:     "; retry later or pass --session <another id>",
	catalog.CodeUnknownSession:           "; pass a session id it lists, or omit --session to bind to the latest",
	catalog.CodeInvalidContinuationToken: "; check --continuation-token, or pass --session <id>",
	catalog.CodeConflictingBinding:       "; pass only one of --session and --continuation-token",
	catalog.CodeUnauthorized:             "; pass --bearer-token (or set AGENT_SHELL_BEARER_TOKEN), or run agent-sdk login",
}

// Advise is the message of err for agsh's user: its text, and for a refusal
// from the deployment the advice that names agsh's flags and variables.
func Advise(err error) string {
	text := err.Error()
	var e *catalog.Error
	if !errors.As(err, &e) || !e.Remote || !strings.HasSuffix(text, e.Error()) {
		return text
	}
	if e.ErrCode == catalog.CodeUnknownTool && e.Tool != "" {
		return text + "; 'agsh help' lists the tools of this deployment"
	}
	return text + advice[e.ErrCode]
}
