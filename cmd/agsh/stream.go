package main

import (
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/render"
)

// resultStream is the writer chain of a text result streamed to standard
// output (catalog.CallStream): the string is decoded (render.ResultStream),
// reformatted by read and grep (curated.Stream), and written as the text
// or JSON view would write it whole. A nil *resultStream streams nothing.
type resultStream struct {
	rs      *render.ResultStream
	cur     *curated.Stream
	text    *render.TextStream // the text view's sink (nil for JSON)
	started bool
}

// newResultStream returns the chain for the last command of a line when
// its result may stream: a view that needs the whole value (a highlighted
// read or diff, the other curated commands' reformatting) holds it.
func (a *app) newResultStream(name string, cmd *command, jsonOut, highlighted, grepContext bool, stdout io.Writer) *resultStream {
	st := &resultStream{}
	switch {
	case jsonOut:
		st.rs = render.NewResultStream(render.JSONStringSink(stdout))
	case cmd.reformats() && (highlighted || !curated.Streams(name)):
		return nil
	case cmd.reformats():
		st.text = render.TextStreamSink(stdout, a.outOpts())
		st.cur = curated.NewStream(st.text, name, curated.ReformatOptions{Context: grepContext})
		st.rs = render.NewResultStream(curatedSink{st.cur})
	default:
		st.text = render.TextStreamSink(stdout, a.outOpts())
		st.rs = render.NewResultStream(st.text)
	}
	return st
}

// streamFunc is what catalog.CallStream is given.
func (st *resultStream) streamFunc() catalog.StreamFunc {
	if st == nil {
		return nil
	}
	return func() io.Writer {
		st.started = true
		return st.rs
	}
}

// finish ends a streamed result. held reports text that was held whole
// (it may be JSON): v is then the value to render the usual way.
func (st *resultStream) finish(a *app, stderr io.Writer) (v render.Value, held bool, status int, err error) {
	if err := st.rs.Close(); err != nil {
		return render.Value{}, false, 0, err
	}
	if v, ok := st.rs.Held(); ok {
		return v, true, 0, nil
	}
	if st.cur == nil {
		return render.Value{}, false, exitOK, nil
	}
	end, err := st.cur.Close()
	if err == nil {
		if end.Verbatim {
			err = st.text.Close()
		} else {
			err = st.text.CloseFinal()
		}
	}
	for _, n := range end.Notes {
		a.message(stderr, "", n)
	}
	return render.Value{}, false, end.Status, err
}

// curatedSink is a curated.Stream as a render.TextSink; the stream itself
// is closed by finish, which needs what it leaves.
type curatedSink struct{ s *curated.Stream }

func (c curatedSink) Write(p []byte) (int, error) { return c.s.Write(p) }
func (c curatedSink) Close() error                { return nil }
