package jsontext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// ParseAny decodes what encoding/json decodes with UseNumber.
func TestParseAny(t *testing.T) {
	for _, in := range []string{`{"a":1.50,"b":[true,null,"x\u00e9\n"],"a":-0,"c":{}}`, `[]`, `"\ud83d\ude00"`, "\"\xff\"", `1e3`, `{"":{"x":[[]]}}`} {
		got, err := ParseAny([]byte(in), 100)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v want %#v", in, got, want)
		}
	}
	if _, err := ParseAny([]byte(`{"a":1} x`), 10); err == nil {
		t.Error("trailing data accepted")
	}
}
