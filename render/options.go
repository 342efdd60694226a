package render

// Options says how to render for one stream.
type Options struct {
	// TTY: the stream is a terminal, so foreign text is made safe (Safe).
	TTY bool
	// Color: agsh may add color sequences.
	Color bool
	// Width: the terminal's width, else COLUMNS, else 80; 0 means 80.
	Width int
	// Light, when set, reports whether the terminal's background is light.
	// It is called only when colored markdown or highlighting is about to
	// be written (it may ask the terminal); unset means dark.
	Light func() bool
	// GlamourStyle is the user's GLAMOUR_STYLE: a glamour style name or a
	// JSON style file; "" or "auto" picks light or dark by the background.
	GlamourStyle string
}

// width returns the width to render to (80 when unset).
func (o Options) width() int {
	if o.Width <= 0 {
		return 80
	}
	return o.Width
}

// clean returns the function applied to foreign text: Safe on a terminal,
// the identity otherwise.
func (o Options) clean() func(string) string {
	if o.TTY {
		return Safe
	}
	return func(s string) string { return s }
}

// cleanLabel is clean for names and cells (tables, lists, property
// views): SafeLabel on a terminal, the identity otherwise.
func (o Options) cleanLabel() func(string) string {
	if o.TTY {
		return SafeLabel
	}
	return func(s string) string { return s }
}

// ANSI sequences agsh adds itself (after sanitizing).
const (
	sgrBold  = "\x1b[1m"
	sgrRed   = "\x1b[31m"
	sgrCyan  = "\x1b[36m"
	sgrReset = "\x1b[0m"
)

// helpWidth is the width help pages wrap to: the terminal's, at most 100.
func helpWidth(o Options) int {
	return min(o.width(), 100)
}
