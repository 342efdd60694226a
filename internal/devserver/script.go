package devserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The scripted agent's step language (docs/devserver.md#sessions-with-turns-the-scripted-agent):
// a message whose first step line starts with a step word is a script, read
// line by line:
//
//	call <tool> <json input>   the model calls a tool
//	say <text>                 the model answers (message.completed)
//	sleep <duration>           the model thinks (a Go duration, at most 10m)
//	fail <text>                the turn fails (turn.failed, reason error)
//	# …                        a comment
//
// Any other message gets the fixed reply. A script is checked whole when it
// is sent, so a dry run means something and a malformed step is a 400 with
// its line number, never a surprise in the middle of a turn.
const (
	// plainReply is what the scripted agent answers a message without steps.
	plainReply = "(dev agent) no steps in the message"
	// maxSleep bounds one sleep step.
	maxSleep = 10 * time.Minute
	// maxSteps bounds the steps of one message.
	maxSteps = 10000
	// failText is the message of a fail step without text.
	failText = "the script failed the turn"
)

type stepKind int

const (
	stepCall stepKind = iota
	stepSay
	stepSleep
	stepFail
)

// step is one line of a script.
type step struct {
	kind  stepKind
	line  int           // 1-based line of the message
	tool  string        // call
	input []byte        // call: a JSON object, compacted, numbers as written
	text  string        // say, fail
	dur   time.Duration // sleep
}

// script is a message as the scripted agent reads it.
type script struct {
	steps []step
	plain bool // no steps: the fixed reply
}

// stepWords are the words that start a step.
var stepWords = map[string]stepKind{"call": stepCall, "say": stepSay, "sleep": stepSleep, "fail": stepFail}

// parseScript reads a message. hasTool reports whether the agent has a tool;
// agent names the agent in messages. A malformed step is invalid input
// naming its line.
func parseScript(msg string, hasTool func(string) bool, agent string) (*script, *apiError) {
	lines := strings.Split(msg, "\n")
	first := true
	sc := &script{}
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		word, rest := cutWord(t)
		kind, ok := stepWords[word]
		if first {
			first = false
			if !ok {
				return &script{plain: true, steps: []step{{kind: stepSay, text: plainReply}}}, nil
			}
		}
		n := i + 1
		if !ok {
			return nil, scriptError(n, fmt.Sprintf("unknown step %q: a step is call, say, sleep or fail (# starts a comment)", clip(word, 40)))
		}
		if len(sc.steps) == maxSteps {
			return nil, scriptError(n, fmt.Sprintf("a message holds at most %d steps", maxSteps))
		}
		st, aerr := parseStep(kind, rest, n, hasTool, agent)
		if aerr != nil {
			return nil, aerr
		}
		sc.steps = append(sc.steps, st)
	}
	if first {
		return &script{plain: true, steps: []step{{kind: stepSay, text: plainReply}}}, nil
	}
	return sc, nil
}

// parseStep reads the rest of one step line.
func parseStep(kind stepKind, rest string, n int, hasTool func(string) bool, agent string) (step, *apiError) {
	st := step{kind: kind, line: n}
	switch kind {
	case stepCall:
		name, in := cutWord(rest)
		if name == "" {
			return st, scriptError(n, "call needs a tool name: call <tool> <json input>")
		}
		if !hasTool(name) {
			return st, scriptError(n, fmt.Sprintf("no tool %q on agent %s", clip(name, 100), agent))
		}
		input, err := stepInput(in)
		if err != "" {
			return st, scriptError(n, "the input of call "+clip(name, 100)+" "+err)
		}
		st.tool, st.input = name, input
	case stepSay:
		st.text = rest
	case stepFail:
		st.text = rest
		if st.text == "" {
			st.text = failText
		}
	case stepSleep:
		d, err := time.ParseDuration(rest)
		switch {
		case err != nil:
			return st, scriptError(n, fmt.Sprintf("sleep takes a Go duration such as 2s or 1m30s, not %q", clip(rest, 40)))
		case d < 0:
			return st, scriptError(n, "sleep takes a duration that is not negative, not "+rest)
		case d > maxSleep:
			return st, scriptError(n, fmt.Sprintf("sleep is at most %s, not %s", "10m", rest))
		}
		st.dur = d
	}
	return st, nil
}

// stepInput checks a call's input text: a JSON object (none means {}),
// compacted with its numbers as written. It answers what is wrong, or "".
func stepInput(in string) ([]byte, string) {
	in = strings.TrimSpace(in)
	if in == "" {
		return []byte("{}"), ""
	}
	if !json.Valid([]byte(in)) {
		return nil, "is not valid JSON"
	}
	if in[0] != '{' {
		return nil, "must be a JSON object"
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(in)); err != nil {
		return nil, "is not valid JSON"
	}
	return buf.Bytes(), ""
}

// cutWord splits s at its first run of spaces or tabs.
func cutWord(s string) (word, rest string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// scriptError is the 400 of a malformed step.
func scriptError(line int, what string) *apiError {
	msg := fmt.Sprintf("line %d: %s", line, what)
	return invalidField("the message's step script is malformed: "+msg, msg, "message")
}
