package generated

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// scanSamples cover the JSON grammar; the scanner must agree with
// encoding/json on each.
var scanSamples = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-1.5e3`, `1E+2`, `12345678901234567890.5`,
	`"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u65e5"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`,
	"\"bad \xff utf8\"", `"日本"`, `{"b":1,"a":[1,{"c":null}],"b":2}`, ` { "a" : [ 1 , 2 ] } `,
	`{"a":1,}`, `[1,]`, `[`, `{"a"`, `{"a":`, `"open`, `01`, `1.`, `.5`, `1e`, `+1`, `nul`, `"\u12"`, `{"a":1}}`, "\"\x01\"",
}

func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range scanSamples {
		checkScanner(t, []byte(s))
	}
}

func checkScanner(t *testing.T, b []byte) {
	v, err := parseJSON(b)
	valid := json.Valid(b)
	if (err == nil) != valid {
		t.Fatalf("parseJSON(%q) error = %v, json.Valid = %v", b, err, valid)
	}
	if err != nil {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if got := v.goValue(); !reflect.DeepEqual(got, want) {
		t.Fatalf("parseJSON(%q) = %#v, want %#v", b, got, want)
	}
	// raw re-encodes compactly to the same value.
	var again any
	d2 := json.NewDecoder(bytes.NewReader(v.raw()))
	d2.UseNumber()
	if err := d2.Decode(&again); err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("raw(%q) = %s (%v)", b, v.raw(), err)
	}
}

func TestScannerKeepsOrder(t *testing.T) {
	v, err := parseJSON([]byte(`{"z":1,"a":2,"m":3,"a":4}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.raw()); got != `{"z":1,"a":4,"m":3}` {
		t.Fatalf("raw = %s", got)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range scanSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanner(t, b) })
}
