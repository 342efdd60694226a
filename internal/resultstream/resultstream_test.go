package resultstream

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/agsh-dev/agsh/curated"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/wire"
	"github.com/agsh-dev/agsh/render"
)

func TestNewHoldsWhatNeedsTheWhole(t *testing.T) {
	var w bytes.Buffer
	for _, o := range []Options{
		{Spec: spec("read"), Highlighted: true, Last: true},
		{Spec: spec("ls"), Last: true},
		{Spec: spec("diff"), Last: true},
		{Spec: spec("read")},
	} {
		if New(&w, o) != nil {
			t.Errorf("%+v streams", o)
		}
	}
	if New(&w, Options{Spec: spec("read"), Last: true}) == nil ||
		New(&w, Options{Format: render.JSON, Last: true}) == nil {
		t.Error("a streamable result does not stream")
	}
}

// feed writes a string token's content through the chain of o.
func feed(t *testing.T, o Options, content string, callErr error) (string, End, []string, error) {
	t.Helper()
	var w bytes.Buffer
	s := New(&w, o)
	if _, err := s.Func()().Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	var notes []string
	end, err := s.Finish(callErr, func(n string) { notes = append(notes, n) })
	return w.String(), end, notes, err
}

func TestChains(t *testing.T) {
	out, end, _, err := feed(t, Options{Spec: spec("read"), Last: true},
		`     1|a\n     2|b\n\n[Showing lines 1-2 of 9. Use offset=3 to continue.]`, nil)
	if err != nil || out != "a\nb\n" || end.Held {
		t.Fatalf("read: %q %+v %v", out, end, err)
	}
	out, _, _, _ = feed(t, Options{Spec: spec("read"), Last: true}, `not numbered`, nil)
	if out != "not numbered\n" {
		t.Fatalf("read verbatim: %q", out)
	}
	out, end, _, _ = feed(t, Options{Spec: spec("grep"), Last: true}, `No matches found`, nil)
	if out != "" || end.Status != 1 {
		t.Fatalf("grep: %q %+v", out, end)
	}
	out, _, _, _ = feed(t, Options{Last: true, Render: render.Options{TTY: true}}, `a\u001b[2Jb`, nil)
	if out != `a\x1b[2Jb`+"\n" {
		t.Fatalf("text on a terminal: %q", out)
	}
	out, _, _, _ = feed(t, Options{Format: render.JSON, Last: true}, `a\/b`, nil)
	if out != `"a/b"`+"\n" {
		t.Fatalf("json: %q", out)
	}
	out, end, _, _ = feed(t, Options{Last: true}, ` [1,2]`, nil)
	if out != "" || !end.Held || !end.Value.IsJSON {
		t.Fatalf("JSON text: %q %+v", out, end)
	}
	boom := errors.New("cut short")
	out, _, _, err = feed(t, Options{Last: true}, `partial`, boom)
	if err != boom || !strings.HasPrefix(out, "partial") {
		t.Fatalf("call error: %q %v", out, err)
	}
}

// TestFeedHeld: a held text result for --output json goes through the
// chain and writes what the usual path writes; text that may be JSON comes
// back held; an error result or another view is left to the usual path.
func TestFeedHeld(t *testing.T) {
	for _, c := range []struct {
		result string
		held   bool
	}{
		{`"line \"one\"\n\u00e9 \u001b[1m` + strings.Repeat("x", 200<<10) + `"`, false},
		{`"  {\"a\": 1}"`, true},
	} {
		var want, got bytes.Buffer
		if err := render.WriteJSON(&want, render.FromResult([]byte(c.result))); err != nil {
			t.Fatal(err)
		}
		s := New(&got, Options{Format: render.JSON, Last: true})
		res := &catalog.CallResult{CallResult: wire.CallResult{Result: []byte(c.result)}}
		if !FeedHeld(s.Func(), render.JSON, res) || !res.Streamed || res.Result != nil {
			t.Fatalf("%.20s: not fed", c.result)
		}
		end, err := s.Finish(nil, func(string) {})
		if err != nil || end.Held != c.held {
			t.Fatalf("%.20s: held %v, err %v", c.result, end.Held, err)
		}
		if end.Held {
			if err := render.WriteJSON(&got, end.Value); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%.20s: wrote %.80q, want %.80q", c.result, got.String(), want.String())
		}
	}
	s := New(&bytes.Buffer{}, Options{Format: render.JSON, Last: true})
	for _, c := range []struct {
		json bool
		res  catalog.CallResult
	}{
		{true, catalog.CallResult{CallResult: wire.CallResult{Result: []byte(`"x"`), IsError: true}}},
		{false, catalog.CallResult{CallResult: wire.CallResult{Result: []byte(`"x"`)}}},
		{true, catalog.CallResult{CallResult: wire.CallResult{Result: []byte(`{"x":1}`)}}},
	} {
		if FeedHeld(s.Func(), formatOf(c.json), &c.res) {
			t.Errorf("%s (json %v, isError %v): fed", c.res.Result, c.json, c.res.IsError)
		}
	}
}

func formatOf(json bool) render.Format {
	if json {
		return render.JSON
	}
	return render.Text
}

// spec is the curated command of name.
func spec(name string) *curated.Spec {
	s, _ := curated.Lookup(name)
	return s
}

// TestChainDeclared: the answer's declared length reaches the read
// reformatter through the chain (jsontext.Declared): declared longer than
// curated.HoldLimit, a text past curated.DeclaredHold is reformatted line
// by line, so that a line not in the format prints from it on as received
// with a note; not told, the text is held and prints verbatim whole.
func TestChainDeclared(t *testing.T) {
	var b strings.Builder
	for i := 1; b.Len() <= 2*curated.DeclaredHold; i++ {
		fmt.Fprintf(&b, `%6d|line %d\n`, i, i)
	}
	content := b.String() + `not numbered`
	for _, told := range []bool{true, false} {
		var w bytes.Buffer
		s := New(&w, Options{Spec: spec("read"), Last: true})
		sw := s.Func()()
		if told {
			sw.(jsontext.Declared).Declared(curated.HoldLimit + 1)
		}
		if _, err := sw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
		var notes []string
		if _, err := s.Finish(nil, func(n string) { notes = append(notes, n) }); err != nil {
			t.Fatal(err)
		}
		out := w.String()
		if reformatted := strings.HasPrefix(out, "line 1\n"); reformatted != told || (len(notes) == 1) != told || !strings.HasSuffix(out, "\nnot numbered\n") {
			t.Errorf("told %v: %.40q ... notes %q", told, out, notes)
		}
	}
}
