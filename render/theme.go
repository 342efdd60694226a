package render

import (
	"github.com/charmbracelet/glamour/styles"
)

// Light and dark styles (docs/rendering.md#color-and-highlighting): on a
// light background neither glamour nor chroma may print near-white text.
const (
	chromaDark  = "monokai"
	chromaLight = "paraiso-light"
)

// light reports whether the background is light, asking only now.
func (o Options) light() bool {
	return o.Light != nil && o.Light()
}

// chromaStyle is the chroma style for highlighting on this background.
func (o Options) chromaStyle() string {
	if o.light() {
		return chromaLight
	}
	return chromaDark
}

// mdStyle names the glamour style of a help page's markdown: "notty"
// without color; with color the user's GLAMOUR_STYLE when set, else light
// or dark by the background (asked only when there is markdown to render).
func (o Options) mdStyle() string {
	if !o.Color {
		return styles.NoTTYStyle
	}
	if o.GlamourStyle != "" && o.GlamourStyle != styles.AutoStyle {
		return o.GlamourStyle
	}
	if o.light() {
		return styles.LightStyle
	}
	return styles.DarkStyle
}
