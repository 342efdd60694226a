package render

import (
	"encoding/json"
	"testing"
)

// TestNextCursor: _meta.nextCursor of an MCP result, or a cursor member
// next to the rows of a structured value; never from a plain object.
func TestNextCursor(t *testing.T) {
	for in, want := range map[string]string{
		`{"content":[{"type":"text","text":"[{\"id\":1}]"}],"_meta":{"nextCursor":"4102279"}}`:         "4102279",
		`{"content":[{"type":"image","data":"QUFB","mimeType":"image/png"}],"_meta":{"nextCursor":7}}`: "7",
		`{"content":[{"type":"text","text":"{\"rows\":[1],\"next_cursor\":\"abc\"}"}]}`:                "abc",
		`{"items":[{"a":1}],"nextPageToken":"tok"}`:                                                    "tok",
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"rows":[],"nextCursor":"s"}}`:    "s",
		`{"nextCursor":"c","name":"not rows"}`:                                                         "",
		`{"content":[{"type":"text","text":"x"}],"_meta":{"nextCursor":""}}`:                           "",
		`{"content":[{"type":"text","text":"x"}]}`:                                                     "",
		`"nextCursor"`: "",
	} {
		if got := NextCursor(FromResult(json.RawMessage(in))); got != want {
			t.Errorf("NextCursor(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestNextPageLine(t *testing.T) {
	if got := NextPageLine("4102279", []string{"datadog_list_monitors", "--status", "Alert", "--page-cursor", "4102279"}); got != "next page: datadog_list_monitors --status Alert --page-cursor 4102279" {
		t.Errorf("got %q", got)
	}
	if got := NextPageLine("a b'c", nil); got != `next page cursor: 'a b'\''c'` {
		t.Errorf("got %q", got)
	}
	if got := NextPageLine("x", []string{"t", "--q", "two words", "--c", "x"}); got != "next page: t --q 'two words' --c x" {
		t.Errorf("got %q", got)
	}
}
