package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	_ "image/gif" // decoders for the preview: GIF, JPEG, PNG
	_ "image/jpeg"
	_ "image/png"
	"strconv"
	"strings"
)

// Image preview limits (docs/rendering.md#mcp-results): at most previewRows
// rows of half blocks, never wider than the terminal; images larger than
// maxPreviewSide on a side or maxPreviewBytes decoded are not decoded at all.
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
// in 24-bit color, scaled down to at most previewRows rows and width cells;
// transparency shows the terminal's background (white when light, else
// black). It is decoration, like color: the caller adds it only on a color
// terminal. nil when the data is not a PNG, JPEG or GIF it may decode.
func imagePreview(data string, width int, light bool) []string {
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
	raw = pngEssentials(raw)
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
	bg := uint32(0)
	if light {
		bg = 255
	}
	// sample averages the source pixels that fall in one target pixel, laid
	// over the background; below the image (an odd last row) is background.
	sample := func(x, y int) [3]uint32 {
		x0, x1 := b.Min.X+x*w/cols, b.Min.X+(x+1)*w/cols
		y0, y1 := b.Min.Y+y*h/pixRows, b.Min.Y+(y+1)*h/pixRows
		if y0 >= b.Max.Y {
			return [3]uint32{bg, bg, bg}
		}
		x1, y1 = max(x1, x0+1), max(y1, y0+1)
		var r, g, bl, n uint32
		for yy := y0; yy < y1 && yy < b.Max.Y; yy++ {
			for xx := x0; xx < x1 && xx < b.Max.X; xx++ {
				cr, cg, cb, ca := img.At(xx, yy).RGBA() // premultiplied: over black
				under := bg * (0xffff - ca) / 0xffff
				r, g, bl, n = r+cr>>8+under, g+cg>>8+under, bl+cb>>8+under, n+1
			}
		}
		if n == 0 {
			return [3]uint32{bg, bg, bg}
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

// pngSignature opens every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// pngEssentials returns a PNG file with only the chunks image/png reads
// (the critical ones and tRNS): the decoder skips the other ancillary chunks
// but still fails on a bad checksum in one, as in server-everything's MCP
// logo (its iCCP chunk). Anything that is not a well-formed chunk sequence
// is returned as it is, for the decoder to judge.
func pngEssentials(raw []byte) []byte {
	if !bytes.HasPrefix(raw, []byte(pngSignature)) {
		return raw
	}
	out := append(make([]byte, 0, len(raw)), pngSignature...)
	dropped := false
	for p := len(pngSignature); p < len(raw); {
		if len(raw)-p < 12 {
			return raw
		}
		n := int(binary.BigEndian.Uint32(raw[p:]))
		if n < 0 || n > len(raw)-p-12 {
			return raw
		}
		end := p + 12 + n
		typ := raw[p+4 : p+8]
		if typ[0]&0x20 == 0 || string(typ) == "tRNS" { // critical: upper case
			out = append(out, raw[p:end]...)
		} else {
			dropped = true
		}
		p = end
	}
	if !dropped {
		return raw
	}
	return out
}

func rgb(c [3]uint32) string {
	return strconv.Itoa(int(c[0])) + ";" + strconv.Itoa(int(c[1])) + ";" + strconv.Itoa(int(c[2]))
}
