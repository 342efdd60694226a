package render

import (
	"bytes"
	"encoding/base64"
	"image"
	_ "image/gif" // decoders for the preview: GIF, JPEG, PNG
	_ "image/jpeg"
	_ "image/png"
	"strconv"
	"strings"
)

// Image preview limits (issue 14 rule 2): at most previewRows rows of half
// blocks, never wider than the terminal; images larger than maxPreviewSide
// on a side or maxPreviewBytes decoded are not decoded at all.
const (
	previewRows     = 16
	maxPreviewSide  = 4096
	maxPreviewBytes = 16 << 20
)

// previewable reports whether an image part's MIME type is one the preview
// decodes.
func previewable(mimeType string) bool {
	switch strings.ToLower(strings.TrimSpace(mimeType)) {
	case "image/png", "image/jpeg", "image/jpg", "image/gif":
		return true
	}
	return false
}

// imagePreview renders base64 image data as lines of Unicode upper half
// blocks, each cell two pixels (foreground the upper, background the lower)
// in 24-bit color, scaled down to at most previewRows rows and width cells.
// It is decoration, like color: the caller adds it only on a color
// terminal. nil when the data is not a PNG, JPEG or GIF it may decode.
func imagePreview(data string, width int) []string {
	if width < 1 || base64Len(data) > maxPreviewBytes {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' {
			return -1
		}
		return r
	}, data))
	if err != nil || len(raw) > maxPreviewBytes {
		return nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxPreviewSide || cfg.Height > maxPreviewSide {
		return nil
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// Scale (never up) so that cols ≤ width and 2·rows ≤ 2·previewRows.
	cols, pixRows := w, h
	if cols > width {
		cols, pixRows = width, max(1, h*width/w)
	}
	if pixRows > 2*previewRows {
		cols, pixRows = max(1, cols*2*previewRows/pixRows), 2*previewRows
	}
	if pixRows%2 == 1 {
		pixRows++
	}
	// sample averages the source pixels that fall in one target pixel;
	// below the image (an odd last row) is black.
	sample := func(x, y int) [3]uint32 {
		x0, x1 := b.Min.X+x*w/cols, b.Min.X+(x+1)*w/cols
		y0, y1 := b.Min.Y+y*h/pixRows, b.Min.Y+(y+1)*h/pixRows
		if y0 >= b.Max.Y {
			return [3]uint32{}
		}
		x1, y1 = max(x1, x0+1), max(y1, y0+1)
		var r, g, bl, n uint32
		for yy := y0; yy < y1 && yy < b.Max.Y; yy++ {
			for xx := x0; xx < x1 && xx < b.Max.X; xx++ {
				cr, cg, cb, _ := img.At(xx, yy).RGBA() // premultiplied: over black
				r, g, bl, n = r+cr>>8, g+cg>>8, bl+cb>>8, n+1
			}
		}
		if n == 0 {
			return [3]uint32{}
		}
		return [3]uint32{r / n, g / n, bl / n}
	}
	lines := make([]string, 0, pixRows/2)
	for y := 0; y < pixRows; y += 2 {
		var sb strings.Builder
		for x := 0; x < cols; x++ {
			top, bot := sample(x, y), sample(x, y+1)
			sb.WriteString("\x1b[38;2;" + rgb(top) + ";48;2;" + rgb(bot) + "m▀")
		}
		sb.WriteString(sgrReset)
		lines = append(lines, sb.String())
	}
	return lines
}

func rgb(c [3]uint32) string {
	return strconv.Itoa(int(c[0])) + ";" + strconv.Itoa(int(c[1])) + ";" + strconv.Itoa(int(c[2]))
}
