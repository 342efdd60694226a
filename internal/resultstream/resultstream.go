// Package resultstream is the writer chain of a call's text result
// streamed to standard output (catalog.CallStream): the string is decoded
// (render.ResultStream), reformatted by read and grep (curated.Stream), and
// written as the text or --output json view would write the whole value.
// Views that need the whole value (a highlighted read or diff, the other
// curated commands' reformatting, text that may be JSON) hold it: New then
// returns nil, or Finish hands the held value back.
package resultstream

import (
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/render"
)

// Options describe the command whose result may stream.
type Options struct {
	// Spec is the curated command whose results are reformatted; nil when
	// they are not (a generated command, or a curated one fallen back).
	Spec *curated.Spec
	// Reformat are its reformatter's options for this call.
	Reformat curated.ReformatOptions
	// Format is the line's output format.
	Format render.Format
	// Highlighted: the result would be highlighted (a read or diff on a
	// color terminal), which needs the whole text.
	Highlighted bool
	// Render is standard output's rendering options.
	Render render.Options
	// Last: the command ends its line; only then can its result stream.
	Last bool
}

// Stream is one result's chain. A nil *Stream streams nothing.
type Stream struct {
	rs   *render.ResultStream
	cur  *curated.Stream
	text *render.TextStream // the text view's sink (nil for JSON)
}

// New returns the chain onto w, or nil when the view needs the whole value.
func New(w io.Writer, o Options) *Stream {
	s := &Stream{}
	switch {
	case !o.Last:
		return nil
	case o.Format.IsData():
		sink := o.Format.Data.TextSink(w)
		if sink == nil {
			return nil // the format needs the whole value
		}
		s.rs = render.NewResultStream(sink)
	case o.Spec != nil && (o.Highlighted || !o.Spec.Streams()):
		return nil
	case o.Spec != nil:
		s.text = render.TextStreamSink(w, o.Render)
		s.cur = curated.NewStream(s.text, o.Spec, o.Reformat)
		s.rs = render.NewResultStream(curatedSink{s.cur})
	default:
		s.text = render.TextStreamSink(w, o.Render)
		s.rs = render.NewResultStream(s.text)
	}
	return s
}

// Func is what catalog.CallStream is given.
func (s *Stream) Func() catalog.StreamFunc {
	if s == nil {
		return nil
	}
	return func() io.Writer { return s.rs }
}

// End is what a finished stream leaves to its caller.
type End struct {
	// Held: the text was held whole (it may be JSON); Value is then the
	// value to render the usual way.
	Held  bool
	Value render.Value
	// Notes go to standard error; Status is the command's exit status.
	Notes  []string
	Status int
}

// Finish ends a streamed result whose call returned callErr, passing each
// note for standard error to note; the error is callErr, else the
// stream's own.
func (s *Stream) Finish(callErr error, note func(string)) (End, error) {
	end, err := s.finish()
	for _, n := range end.Notes {
		note(n)
	}
	if callErr != nil {
		return end, callErr
	}
	return end, err
}

func (s *Stream) finish() (End, error) {
	if err := s.rs.Close(); err != nil {
		return End{}, err
	}
	if v, ok := s.rs.Held(); ok {
		return End{Held: true, Value: v}, nil
	}
	if s.cur == nil {
		return End{}, nil
	}
	end, err := s.cur.Close()
	if err == nil {
		if end.Verbatim {
			err = s.text.Close()
		} else {
			err = s.text.CloseFinal()
		}
	}
	return End{Notes: end.Notes, Status: end.Status}, err
}

// curatedSink is a curated.Stream as a render.TextSink; Finish closes the
// stream itself, as it needs what the stream leaves.
type curatedSink struct{ s *curated.Stream }

func (c curatedSink) Write(p []byte) (int, error)         { return c.s.Write(p) }
func (c curatedSink) WriteRun(text []byte, nl bool) error { return c.s.WriteRun(text, nl) }
func (c curatedSink) EndRuns() error                      { return c.s.EndRuns() }
func (c curatedSink) Close() error                        { return nil }
func (c curatedSink) Declared(n int64)                    { c.s.Declared(n) }

// FeedHeld writes a held answer's text result (ok and isError came after
// it) through the chain of f when the output is a data format: from the
// answer's bytes, in chunks as a streamed answer arrives, so that the
// decoded text is never built whole. res is then marked streamed, its
// Result dropped; false: the result takes the usual path.
func FeedHeld(f catalog.StreamFunc, format render.Format, res *catalog.CallResult) bool {
	if f == nil || !format.IsData() || res == nil || res.IsError || !stringToken(res.Result) {
		return false
	}
	w := f()
	const chunk = 64 << 10
	content := res.Result[1 : len(res.Result)-1]
	for len(content) > 0 {
		n := min(len(content), chunk)
		if _, err := w.Write(content[:n]); err != nil {
			break // the chain keeps its error for Finish
		}
		content = content[n:]
	}
	res.Result, res.Streamed = nil, true
	return true
}

// stringToken reports whether b is exactly one valid JSON string token.
func stringToken(b []byte) bool {
	end, ok := jsontext.StringEnd(b, 0)
	return ok && end == len(b)
}
