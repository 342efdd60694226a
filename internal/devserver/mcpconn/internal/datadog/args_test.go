package datadog

import "testing"

func TestParseArgs(t *testing.T) {
	tests := []struct {
		raw     string
		known   []string
		wantErr string
	}{
		{raw: ``, known: []string{"id"}},
		{raw: `{}`, known: []string{"id"}},
		{raw: `{"id":1}`, known: []string{"id"}},
		{raw: `[1]`, known: []string{"id"}, wantErr: "the arguments must be a JSON object"},
		{raw: `null`, known: []string{"id"}, wantErr: "the arguments must be a JSON object"},
		{raw: `{"b":1,"a":2}`, known: []string{"id"}, wantErr: `unknown property "a" (known: id)`},
	}
	for _, tt := range tests {
		_, err := parseArgs([]byte(tt.raw), tt.known...)
		if got := errText(err); got != tt.wantErr {
			t.Errorf("parseArgs(%s) error %q, want %q", tt.raw, got, tt.wantErr)
		}
	}
}

func TestArgsAccessors(t *testing.T) {
	a, err := parseArgs([]byte(`{"s":"x","n":42,"f":4.5,"l":["a","b"],"o":{"size":3},"z":null}`), "s", "n", "f", "l", "o", "z")
	if err != nil {
		t.Fatal(err)
	}
	if s, ok, err := a.str("s"); s != "x" || !ok || err != nil {
		t.Errorf("str(s) = %q %v %v", s, ok, err)
	}
	if _, ok, err := a.str("z"); ok || err != nil {
		t.Errorf("str(null) = %v %v", ok, err)
	}
	if _, _, err := a.str("n"); errText(err) != "n: expected a string, got 42" {
		t.Errorf("str(n) error %v", err)
	}
	if n, ok, err := a.integer("n", "n"); n != 42 || !ok || err != nil {
		t.Errorf("integer(n) = %d %v %v", n, ok, err)
	}
	if _, _, err := a.integer("f", "f"); errText(err) != "f: expected an integer, got 4.5" {
		t.Errorf("integer(f) error %v", err)
	}
	if _, err := a.required("missing"); errText(err) != "missing is required" {
		t.Errorf("required(missing) error %v", err)
	}
	if l, ok, err := a.strs("l"); len(l) != 2 || !ok || err != nil {
		t.Errorf("strs(l) = %q %v %v", l, ok, err)
	}
	if o, ok, err := a.object("o", "size"); !ok || err != nil || string(o["size"]) != "3" {
		t.Errorf("object(o) = %v %v %v", o, ok, err)
	}
	if _, _, err := a.object("o", "cursor"); errText(err) != `unknown property "o.size" (known: cursor)` {
		t.Errorf("object(o) error %v", err)
	}
	if _, _, err := a.object("l"); errText(err) != `l: expected an object, got ["a","b"]` {
		t.Errorf("object(l) error %v", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
