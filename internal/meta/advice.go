package meta

import (
	"errors"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
)

// spelling is how agsh's command line names the settings catalog's errors
// point at.
var spelling = map[catalog.Setting]string{
	catalog.SettingTarget:            "--target",
	catalog.SettingControlPlane:      "AGENT_SHELL_API_URL",
	catalog.SettingTeam:              "--team",
	catalog.SettingToken:             "--bearer-token/AGENT_SHELL_BEARER_TOKEN",
	catalog.SettingTokenVariable:     "AGENT_SHELL_BEARER_TOKEN",
	catalog.SettingSession:           "--session",
	catalog.SettingContinuationToken: "--continuation-token",
	catalog.SettingProxy:             "HTTPS_PROXY/HTTP_PROXY (http://user:password@host:port)",
	catalog.SettingCallTimeout:       "--timeout",
}

func spell(s catalog.Setting) string { return spelling[s] }

// advice is what agsh tells its user to do, by error code: catalog says
// what happened, the command line names its own flags and variables.
var advice = map[string]string{
	catalog.CodeWorkspaceUnavailable:     "; retry later or pass --session <another id>",
	catalog.CodeUnknownSession:           "; :sessions lists the ones it has",
	catalog.CodeInvalidContinuationToken: "; check --continuation-token, or pass --session <id>",
	catalog.CodeConflictingBinding:       "; pass only one of --session and --continuation-token",
	catalog.CodeUnauthorized:             "; pass --bearer-token (or set AGENT_SHELL_BEARER_TOKEN), or run agent-sdk login",
	catalog.CodeUnknownCall:              "; :approvals lists the calls waiting for a decision",
	catalog.CodeNotParked:                "; :approvals lists the calls still waiting",
	catalog.CodeTaskSession:              "; :new starts a session that takes messages",
}

// WaitWord, when set, is the meta command that waits for a session to
// reach a state (:wait, when the meta table has it): the advice of a busy
// session names it.
var WaitWord string

// busyAdvice is what to do about a busy session: see what runs, wait for
// it, or work elsewhere.
func busyAdvice(id string) string {
	if id == "" {
		return "; wait for it to finish, or pass --session <another id>"
	}
	wait := "wait for it to finish"
	if WaitWord != "" {
		wait = WaitWord + " " + id + " --for waiting waits for it"
	}
	return "; :tail " + id + " shows what it runs, " + wait + ", or pass --session <another id>"
}

// Advise is the message of err for agsh's user: its text with the settings
// it names spelled as agsh's flags and variables, and the advice of its
// code: for a refusal from the deployment, and for a run without a target.
func Advise(err error) string {
	text := err.Error()
	var e *catalog.Error
	if !errors.As(err, &e) {
		return text
	}
	plain := e.Error()
	if !strings.Contains(text, plain) {
		return text
	}
	worded := e.Text(spell)
	switch {
	case e.ErrCode == catalog.CodeNoTarget:
		worded += ": pass --target <url|name> or set AGENT_SHELL_TARGET"
	case !e.Remote:
	case e.ErrCode == catalog.CodeUnknownTool && e.Tool != "":
		worded += "; 'agsh help' lists the tools of this deployment"
	case e.ErrCode == catalog.CodeSessionBusy:
		worded += busyAdvice(e.SessionID)
	default:
		worded += advice[e.ErrCode]
	}
	return strings.Replace(text, plain, worded, 1)
}
