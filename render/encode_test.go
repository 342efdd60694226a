package render

import (
	"strings"
	"testing"
)

func TestEncodeJSON(t *testing.T) {
	var b strings.Builder
	if err := EncodeJSON(&b, map[string]string{"m": "a<b>\u009b\x7f"}, false); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"m":"a<b>\u009b\u007f"}`+"\n"; got != want {
		t.Errorf("compact = %q, want %q", got, want)
	}
	b.Reset()
	EncodeJSON(&b, []int{1}, true)
	if got, want := b.String(), "[\n  1\n]\n"; got != want {
		t.Errorf("indented = %q, want %q", got, want)
	}
}
