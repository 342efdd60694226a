package console

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The first line of a long string result, read from its head only, is the
// one the whole result gives.
func TestResultHead(t *testing.T) {
	big := strings.Repeat("y", 200<<10)
	for _, s := range []string{
		"short", "first line\nsecond", "\n\n  first after blanks\nmore", "first\n" + big, big, "a\u00e9\u65e5" + big,
		"line \"quoted\" \\ \u202e\n" + big, strings.Repeat("é", 100<<10) + "\nnext",
	} {
		raw, _ := json.Marshal(s)
		if got, want := resultHead(raw), firstLine(resultString(raw)); got != want {
			t.Errorf("resultHead of %d bytes: %q, want %q", len(raw), clip(got, 80), clip(want, 80))
		}
	}
	for _, raw := range []string{`{"content":[{"type":"text","text":"x\ny"}]}`, `[1,2]`, `null`, `12`} {
		if got, want := resultHead(json.RawMessage(raw)), firstLine(resultString(json.RawMessage(raw))); got != want {
			t.Errorf("resultHead(%s) = %q, want %q", raw, got, want)
		}
	}
}

// Times a fraction of a second apart share their clock; others do not.
func TestWhenCache(t *testing.T) {
	d := &describer{loc: time.FixedZone("x", 3600)}
	for _, at := range []string{"2026-01-02T23:59:59.100Z", "2026-01-02T23:59:59.900Z", "2026-01-03T00:00:00.001Z",
		"2026-01-03T00:00:00.5+01:00", "2026-01-03T00:00:00.5+02:00", "not a time", "2026-13-03T00:00:00.5Z", "2026-13-03T00:00:00.6Z",
		"2026-01-03T00:00:00Z", "2026-01-03T00:00:00.Z", "2026-01-03T00:00:00.7Z"} {
		clock, day := d.when(at)
		want, wantDay := (&describer{loc: d.loc}).parseWhen(at)
		if clock != want || day != wantDay {
			t.Errorf("when(%q) = %q %q, want %q %q", at, clock, day, want, wantDay)
		}
	}
}
