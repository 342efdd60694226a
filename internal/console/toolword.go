package console

import (
	"strconv"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// maxToolWord is the longest tool name a command line names: the
// model-facing names of a deployment are at most 64 characters
// (docs/console.md#replay).
const maxToolWord = 64

// ToolWordProblem says why a recorded tool name is not a plain command word,
// so that no command line names it (docs/console.md#replay); "" when it is
// one. A plain command word is what a deployment names its tools with:
// 1 to 64 ASCII letters, digits, '_' and '-', not starting with '-' (an
// option of agsh's, --session=x, --yes, -h), and not one of the shell's
// own words (help, exit), which name the call only while a tool of that
// name is listed. Anything else (a meta command's ':', a space, a quote, a
// metacharacter, a control, bidi or zero-width character) would print a
// line that runs something other than the call.
func ToolWordProblem(name string) string {
	switch {
	case name == "":
		return "the call names no tool"
	case len(name) > maxToolWord:
		return "its tool name is longer than " + strconv.Itoa(maxToolWord) + " characters"
	case name[0] == ':':
		return "its tool name " + quoteName(name) + " is spelled like a meta command"
	case name[0] == '-':
		return "its tool name " + quoteName(name) + " is spelled like an option of agsh's"
	case name == "help" || name == "exit":
		return "its tool name " + quoteName(name) + " is one of the shell's own words"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return "its tool name " + quoteName(name) + " holds characters other than letters, digits, '_' and '-'"
		}
	}
	return ""
}

// quoteName is a recorded tool name quoted for a message: ASCII only, every
// other character escaped, cut to 80 bytes.
func quoteName(s string) string { return strconv.QuoteToASCII(clip(s, 80)) }

// ReplayRefusal is why call has no command line (exit 3), or nil: its tool
// name is not a plain command word (ToolWordProblem), or the deployment cut
// its input.
func ReplayRefusal(call *Call) error {
	if why := ToolWordProblem(call.Tool); why != "" {
		return &ReplayError{Exit: exitcode.Refused, Code_: codeNotReplayable,
			Msg: "call " + call.ID + " has no command line: " + why + "; :trace --output json shows the call as recorded"}
	}
	if call.Truncated {
		return &ReplayError{Exit: exitcode.Refused, Code_: codeNotReplayable, Msg: "the record holds only part of the input of call " + call.ID +
			" (the deployment cut it to bound the event); it cannot be replayed"}
	}
	return nil
}

// codeNotReplayable is the JSON error line's code of a call no command line
// repeats.
const codeNotReplayable = "not_replayable"
