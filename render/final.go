package render

import "io"

// WriteFinal renders a pipeline's final value on w, its notes on notes: in
// the data format f when f is one, else highlighted on a color terminal
// when highlight names a file (by its extension) or is "diff", else the
// value's view.
func WriteFinal(w, notes io.Writer, v Value, f Format, highlight string, o Options) error {
	if f.IsData() {
		return f.Data.Value(w, v)
	}
	if o.Color && highlight != "" {
		if highlight == "diff" {
			return HighlightDiffFor(w, Safe(v.Text), o)
		}
		return HighlightFileFor(w, highlight, Safe(v.Text), o)
	}
	return Write(w, notes, v, o)
}
