package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func pngBase64(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestImagePreview: on a color terminal a PNG image also renders as half
// blocks, at most 16 rows and never wider than the terminal; without color,
// or piped (even with color forced), only the placeholder line; an image
// over 4096 pixels on a side is not decoded.
func TestImagePreview(t *testing.T) {
	result := func(data string) Value {
		return FromResult(json.RawMessage(`{"content":[{"type":"text","text":"look \u001b[31m"},{"type":"image","mimeType":"image/png","data":"` + data + `"}]}`))
	}
	big := result(pngBase64(t, 300, 200))
	var out bytes.Buffer
	if err := Write(&out, nil, big, Options{TTY: true, Color: true, Width: 40}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 3 || lines[0] != `look \x1b[31m` || !strings.HasPrefix(lines[1], "[image image/png, ") {
		t.Fatalf("preview output:\n%q", out.String())
	}
	rows := lines[2:]
	if len(rows) > 16 {
		t.Errorf("%d preview rows, want at most 16", len(rows))
	}
	for _, r := range rows {
		if n := strings.Count(r, "▀"); n < 1 || n > 40 {
			t.Errorf("a preview row has %d cells (width 40)", n)
		}
		if !strings.Contains(r, "\x1b[38;2;255;0;0;48;2;255;0;0m▀") || !strings.HasSuffix(r, sgrReset) {
			t.Errorf("preview row %q", r)
		}
	}
	for _, o := range []Options{{TTY: true, Width: 40}, {Color: true, Width: 40}} {
		out.Reset()
		if err := Write(&out, nil, big, o); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "▀") {
			t.Errorf("%+v: a preview without a color terminal", o)
		}
	}
	out.Reset()
	if err := Write(&out, nil, result(pngBase64(t, 5000, 1)), Options{TTY: true, Color: true, Width: 40}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "▀") {
		t.Error("an image 5000 pixels wide was previewed")
	}
	// A bad checksum in an ancillary chunk the decoder skips anyway (the
	// iCCP of server-everything's MCP logo) does not cost the preview; one
	// in the pixel data does.
	raw, _ := base64.StdEncoding.DecodeString(pngBase64(t, 4, 4))
	iccp := append([]byte{0, 0, 0, 3, 'i', 'C', 'C', 'P', 'a', 'b', 'c'}, 0xde, 0xad, 0xbe, 0xef)
	bad := append(append(append([]byte(nil), raw[:33]...), iccp...), raw[33:]...) // after IHDR
	if rows := imagePreview(base64.StdEncoding.EncodeToString(bad), 40, false); len(rows) != 2 {
		t.Errorf("a bad iCCP checksum: %d preview rows, want 2", len(rows))
	}
	broken := append([]byte(nil), raw...)
	broken[len(broken)-13] ^= 0xff // the last IDAT's checksum
	if imagePreview(base64.StdEncoding.EncodeToString(broken), 40, false) != nil {
		t.Error("a bad IDAT checksum gave a preview")
	}
	// A transparent pixel shows the background: black on a dark terminal,
	// white on a light one.
	clear := func() string {
		var b bytes.Buffer
		_ = png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 1, 2)))
		return base64.StdEncoding.EncodeToString(b.Bytes())
	}()
	for light, want := range map[bool]string{false: "\x1b[38;2;0;0;0;48;2;0;0;0m▀", true: "\x1b[38;2;255;255;255;48;2;255;255;255m▀"} {
		if rows := imagePreview(clear, 40, light); len(rows) != 1 || !strings.HasPrefix(rows[0], want) {
			t.Errorf("transparent, light %v: %q", light, rows)
		}
	}
	out.Reset()
	if err := Write(&out, nil, result(clear), Options{TTY: true, Color: true, Width: 40, Light: func() bool { return true }}); err != nil || !strings.Contains(out.String(), "48;2;255;255;255m▀") {
		t.Errorf("Write on a light terminal: %v %q", err, out.String())
	}
	if imagePreview("bm90IGFuIGltYWdl", 40, false) != nil {
		t.Error("data that is no image gave a preview")
	}
}
