package devserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var callBodies = []string{
	`{"input":{"path":"/repo/a.txt"}}`,
	` { "input" : { "a" : [1, 2, {"b": null}] } , "sessionId" : "ses_1", "continuationToken": "tok" } `,
	`{"input":null,"sessionId":null}`,
	`{"sessionId":"a","sessionId":null}`,
	`{"input":{"x":1},"input":{"y":2}}`,
	`{"Input":{"path":"x"}}`,
	`{"SESSIONID":"s"}`,
	"{\"\u017fessionId\":\"s\"}",
	`{"\u0069nput":{}}`,
	`{"sessionId":1}`,
	`{"sessionId":"caf\u00e9 \ud83d\ude00"}`,
	"{\"sessionId\":\"bad \xff\"}",
	`{"other":[1,2,3],"input":{}}`,
	`{}`, `[]`, `"x"`, `{"input":{}} trailing`, `{"input":{}`, `{"input":}`, `{"input":{"a":1,}}`,
	`{"input":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
}

// reflectCallBody is what json.Unmarshal reads of b, and whether it reads it.
func reflectCallBody(b []byte) (callBody, bool) {
	var body callBody
	err := json.Unmarshal(b, &body)
	return body, err == nil
}

// The fast path reads a call's body as json.Unmarshal does, or declines.
func TestCallBodyFastMatchesUnmarshal(t *testing.T) {
	for _, s := range callBodies {
		checkCallBody(t, []byte(s))
	}
	var body callBody
	if !body.decodeFast([]byte(callBodies[1])) || body.SessionID == nil || *body.SessionID != "ses_1" {
		t.Errorf("the common body is not read fast: %+v", body)
	}
}

func checkCallBody(t *testing.T, b []byte) {
	t.Helper()
	var fast callBody
	if !fast.decodeFast(b) {
		return // declined: the reflective path answers
	}
	want, ok := reflectCallBody(b)
	if !ok {
		t.Fatalf("fast path read %q, which json.Unmarshal refuses", b)
	}
	if !reflect.DeepEqual(fast, want) && !(string(fast.Input) == string(want.Input) &&
		reflect.DeepEqual(fast.SessionID, want.SessionID) && reflect.DeepEqual(fast.ContinuationToken, want.ContinuationToken)) {
		t.Fatalf("%q: fast %+v, json.Unmarshal %+v", b, fast, want)
	}
}

func FuzzCallBodyFast(f *testing.F) {
	for _, s := range callBodies {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkCallBody(t, []byte(s)) })
}
