package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// streamDecode is the general path of Client.do for a call answer.
func streamDecode(data []byte) (callAnswer, bool) {
	var a callAnswer
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return a, dec.Decode(&a) == nil
}

var spliceCases = []struct {
	body string
	fast bool
}{
	{`{"ok":true,"toolName":"read","callId":"c1","isError":false,"result":"a\nb \"q\" \u00e9"}`, true},
	// Arrays with and without rows to index (a table; one element not an object).
	{`{"ok":true,"result": [ {"a":1,"b":"x"} , {"b":[2]} ] ,"isError":false}`, true},
	{`{"ok":true,"result":[{"a":1},2]}`, true},
	{` { "result" : "x" , "ok" : true, "durationMs": 12.50, "sessionId": "s1" } `, true},
	{`{"ok":true,"error":null,"result":"x","extra":{"a":[1,"]}",{"b":"}"}]},"t":[]}`, true},
	{`{"ok":false,"error":"session_busy","message":"busy","result":""}`, true},
	{"{\"result\":\"bad \xff utf8\"}", true},
	{`{"result":"x"}trailing`, false},
	{`{"result":{"a":1}}`, true},
	{`{"result":["x"]}`, true},
	{`{"ok":true,"result":[{"id":1,"n":1.50e3,"t":["a","]"]},{"id":2}],"isError":false,"durationMs":3}`, true},
	{` {"result" : { "content" : [ {"type":"text","text":"a\nb"} ] , "isError":false } } `, true},
	{`{"result":[1,]}`, false},
	{`{"result":{"a":01}}`, false},
	{`{"result":{"a" 1}}`, false},
	{`{"result":[1}`, false},
	{`{ "result":`, false},
	{`{"a":1,"result": `, false},
	{"{\"result\":[\"ctl \x01\"]}", false},
	{`{"result":` + strings.Repeat("[", spliceDepth+1) + strings.Repeat("]", spliceDepth+1) + `}`, false},
	{`{"result":` + strings.Repeat("[", spliceDepth) + strings.Repeat("]", spliceDepth) + `}`, true},
	{`{"result":null}`, false},
	{`{"result":"a","result":"b"}`, false},
	{`{"Result":"a","result":"b"}`, false},
	{`{"result":"a","RESULT":"b"}`, false},
	{`{"re\u0073ult":"a"}`, false},
	{"{\"re\u017fult\":\"a\"}", false},
	{`{"ok":true}`, false},
	{`["result","x"]`, false},
	{"{\"result\":\"ctl \x01\"}", false},
	{`{"result":"bad \x"}`, false},
	{`{"result":"cut`, false},
	{`{"result":"x",`, false},
	{`{"result":"x","isError":"yes"}`, false},
	{`{"ok":true,"result":"x","toolName":5}`, false},
	{`{"ok":true "result":"x"}`, false},
	{`{"a":[1,2,"result":"x"}`, false},
}

// TestSpliceMatchesStreaming: a call answer whose result is a string, an
// object or an array is decoded without encoding/json walking the result,
// to the same CallResult; anything else is left to the streaming decoder.
func TestSpliceMatchesStreaming(t *testing.T) {
	for _, c := range spliceCases {
		for _, rows := range []bool{false, true} {
			var a callAnswer
			_, _, got := a.splice([]byte(c.body), rows, 0)
			if got != c.fast {
				t.Errorf("splice(%q, rows %v) = %v, want %v", c.body, rows, got, c.fast)
				continue
			}
			if !got {
				if !reflect.DeepEqual(a, callAnswer{}) {
					t.Errorf("splice(%q) left %+v", c.body, a)
				}
				continue
			}
			checkSpliced(t, c.body, a, rows)
		}
	}
}

func FuzzSplice(f *testing.F) {
	for _, c := range spliceCases {
		f.Add(c.body)
	}
	f.Add(`{"ok":true,"result":"` + strings.Repeat(`x\n`, 50) + `"}`)
	f.Fuzz(func(t *testing.T, body string) {
		for _, rows := range []bool{false, true} {
			var a callAnswer
			if _, _, ok := a.splice([]byte(body), rows, 0); !ok {
				return
			}
			checkSpliced(t, body, a, rows)
		}
	})
}

// checkSpliced: what splice decoded is what the streaming decoder does,
// and its result is marked checked: exactly one JSON value within
// render's depth. With rows asked, an array of objects comes with its
// index (IndexArray's of the result), anything else without.
func checkSpliced(t *testing.T, body string, a callAnswer, rows bool) {
	t.Helper()
	if !a.Checked || !jsontext.Valid(a.Result, 10000) {
		t.Errorf("splice(%q): result %.40q checked %v", body, a.Result, a.Checked)
	}
	var index *jsontext.Rows
	if rows {
		_, _, index, _ = jsontext.IndexArray(a.Result, 0, spliceDepth, 0)
	}
	if !reflect.DeepEqual(a.Rows, index) {
		t.Errorf("splice(%q, rows %v): rows %+v, want %+v", body, rows, a.Rows, index)
	}
	// A held answer's values, counted by the splice, are what the reader
	// would have counted; one bound below them is refused.
	var b callAnswer
	if _, values, ok := b.splice([]byte(body), rows, math.MaxInt64); !ok || values != valuesIn([]byte(body)) {
		t.Errorf("splice(%q) counts %d values (ok %v), the reader %d", body, values, ok, valuesIn([]byte(body)))
	} else if values > 1 { // a bound of 0 is none
		var c callAnswer
		if _, over, ok := c.splice([]byte(body), rows, values-1); ok && over <= values-1 {
			t.Errorf("splice(%q) within a bound of %d: %d values", body, values-1, over)
		}
	}
	a.Checked, a.Rows = false, nil
	want, ok := streamDecode([]byte(body))
	if !ok || !reflect.DeepEqual(a, want) {
		t.Errorf("splice(%q) = %+v, streaming = %+v (ok %v)", body, a, want, ok)
	}
}
