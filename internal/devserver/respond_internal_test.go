package devserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// objectPieces joined are object's bytes, whatever is omitted.
func TestObjectPiecesEqualObject(t *testing.T) {
	for _, fields := range [][]field{
		nil,
		{valIf(false, "a", 1)},
		{val("a", 1)},
		{valIf(false, "a", 1), raw("b", []byte(`{"x":[1,2]}`)), val("c", "é\"<")},
		{val("a", true), raw("empty", nil), valIf(false, "z", 0), val("d", []int{1})},
	} {
		if got, want := bytes.Join(objectPieces(nil, fields...), nil), object(fields...); !bytes.Equal(got, want) {
			t.Errorf("%+v: got %s, want %s", fields, got, want)
		}
	}
}

// The calls route answers the bytes of one object(…) of the calls and
// records, as it did when it built one.
func TestCallsAnswerUnchanged(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		st := &sessionStore{byID: map[string]*session{}, byToken: map[string]*session{}, stale: map[string]*session{},
			ledger: newKeptLedger(), logf: func(string, ...any) {}}
		s, _ := st.create("local", "m", "t", modeChat, false)
		for i := range n {
			st.addCall(s.ID, callRecord{CallID: fmt.Sprintf("call_%d", i), ToolName: "x", Input: jsonText(`{"i":` + fmt.Sprint(i) + `}`),
				TurnID: "turn", Scratch: i == 1}, []record{{Kind: "k", CallID: fmt.Sprintf("call_%d", i), Value: jsonText(`[1]`)}})
		}
		if n == 3 {
			s.DroppedCalls = 2
		}
		var calls, records [][]byte
		for _, cr := range s.Calls {
			calls = append(calls, object(
				val("callId", cr.CallID), val("toolName", cr.ToolName), raw("input", cr.Input),
				val("turnId", cr.TurnID), val("isError", cr.IsError), val("at", cr.At),
				valIf(cr.Scratch, "scratchWorkspace", true)))
		}
		for _, r := range s.Records {
			records = append(records, object(val("kind", r.Kind), val("callId", r.CallID), raw("value", r.Value), val("at", r.At)))
		}
		note := ""
		if s.DroppedCalls > 0 {
			note = fmt.Sprintf("%d older calls and %d older records were dropped: a session keeps its last %d calls and %d records, %d MiB in all",
				s.DroppedCalls, s.DroppedRecords, maxSessionCalls, maxSessionRecords, maxSessionBytes>>20)
		}
		want := object(val("ok", true), val("sessionId", s.ID), raw("calls", array(calls)), raw("records", array(records)),
			valIf(note != "", "droppedCalls", s.DroppedCalls), valIf(note != "", "droppedRecords", s.DroppedRecords),
			valIf(note != "", "note", note))
		a := &agent{slug: "executor", sessions: st}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/executor/v1/dev/sessions/"+s.ID+"/calls", nil)
		a.serveCalls(&reqCtx{w: rec, r: req, principal: "local", segs: []string{s.ID}})
		if got := rec.Body.String(); got != string(want) || !strings.Contains(got, `"calls":[`) {
			t.Errorf("%d calls:\ngot  %s\nwant %s", n, got, want)
		}
	}
}

// A value over the event bound is cut to what compacting it whole and
// cutting would give; one that compacts below the bound is kept whole.
func TestBoundValueLarge(t *testing.T) {
	pad := strings.Repeat("a\\\"b ", maxEventValue/4)
	for _, v := range []string{
		`{ "x" : "` + pad + `" , "y": [1, 2] }`,
		"[" + strings.Repeat(" ", maxEventValue) + "1 ]",
		`"` + strings.Repeat("é", maxEventValue) + `"`,
		`{"x": ` + strings.Repeat("[", 5) + `]`,
	} {
		got, cut := boundValue([]byte(v))
		var buf bytes.Buffer
		var want []byte
		wantCut := false
		if err := json.Compact(&buf, []byte(v)); err != nil {
			want = []byte("null")
		} else if buf.Len() <= maxEventValue {
			want = buf.Bytes()
		} else {
			want, wantCut = marshal(strings.ToValidUTF8(string(buf.Bytes()[:maxEventValue]), "")), true
		}
		if !bytes.Equal(got, want) || cut != wantCut {
			t.Errorf("%.40q: got %.80s %v, want %.80s %v", v, got, cut, want, wantCut)
		}
	}
}
