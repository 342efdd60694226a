package catalog

import (
	"github.com/agsh-dev/agsh/internal/jsontext"

	"bytes"
	"encoding/json"
	"strings"
)

// callShape checks what makes a 2xx answer to a call a success
// (docs/wire.md#invoking-a-tool): one JSON object, nothing after it, "ok" absent
// or true, and a "result" member (once) or a boolean "isError" (a tool that
// returns nothing sends {"ok":true,"isError":false}). It returns "" for
// such an answer, else what is wrong with it. Each of "result", "ok" and
// "isError" may appear once at most (parsers disagree on which of two
// counts, so a success must not hinge on it). Keys are compared as
// encoding/json matches them: unescaped, ignoring case.
func callShape(data []byte) string {
	i := jsontext.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return "it is not a JSON object"
	}
	results, isError, oks, isErrors := 0, false, 0, 0
	var ok []byte
	i = jsontext.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		i++
	} else {
		for {
			ke, kok := jsontext.StringEnd(data, i)
			if !kok {
				return "it is not valid JSON"
			}
			key := string(data[i+1 : ke-1])
			if strings.Contains(key, `\`) {
				_ = json.Unmarshal(data[i:ke], &key)
			}
			if i = jsontext.SkipSpace(data, ke); i >= len(data) || data[i] != ':' {
				return "it is not valid JSON"
			}
			i = jsontext.SkipSpace(data, i+1)
			ve, vok := jsontext.SpanEnd(data, i)
			if !vok {
				return "it is not valid JSON"
			}
			val := bytes.TrimSpace(data[i:ve])
			switch {
			case strings.EqualFold(key, "result"):
				results++
			case strings.EqualFold(key, "isError"):
				isError = string(val) == "true" || string(val) == "false"
				isErrors++
			case strings.EqualFold(key, "ok"):
				ok = val
				oks++
			}
			if i = jsontext.SkipSpace(data, ve); i >= len(data) {
				return "it is not valid JSON"
			}
			if data[i] == '}' {
				i++
				break
			}
			if data[i] != ',' {
				return "it is not valid JSON"
			}
			i = jsontext.SkipSpace(data, i+1)
		}
	}
	switch {
	case jsontext.SkipSpace(data, i) != len(data):
		return "more follows the JSON object"
	case results > 1:
		return `"result" appears more than once`
	case oks > 1:
		// Parsers disagree on which one counts: no answer is a success
		// by the reading of one of them.
		return `"ok" appears more than once`
	case isErrors > 1:
		return `"isError" appears more than once`
	case ok != nil && string(ok) != "true":
		if len(ok) > 8 {
			ok = []byte("not true")
		}
		return `"ok" is ` + string(ok) + ` and no error code is given`
	case results == 0 && !isError:
		return `it has neither "result" nor "isError"`
	}
	return ""
}
