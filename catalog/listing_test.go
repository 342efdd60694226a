package catalog

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// listingCases are GET /v1/tools answers, ordinary and odd.
var listingCases = []string{
	`{"ok":true,"tools":[]}`,
	`{"ok":true,"tools":null}`,
	`{"ok":true}`,
	` { "ok" : true , "tools" : [ { "name" : "read" , "title" : "Read a file", "source" : { "kind" : "authored" } } ] } `,
	`{"ok":true,"tools":[{"name":"a","source":"github"},{"name":"b","source":null},{"name":"c"},{"name":"d","source":{"connection":"x"}},{"name":"e","source":{"connector":"y","kind":""}},{"name":"f","source":"authored"},{"name":"g","source":""}]}`,
	`{"ok":true,"tools":[{"name":"caf\u00e9","title":"line\nbreak \ud83d\ude00","extra":{"a":[1,2.5e-3,-0,true,false,null,"s"]}}],"nextCursor":null}`,
	`{"ok":true,"tools":[null,{"name":"x"}]}`,
	"{\"ok\":true,\"tools\":[{\"name\":\"bad \xff utf8\"}]}",
	`{"OK":true,"tools":[]}`,
	`{"ok":true,"Tools":[{"name":"x"}]}`,
	`{"ok":true,"tools":[{"Name":"x"}]}`,
	`{"ok":true,"tools":[{"n\u0061me":"x"}]}`,
	`{"ok":true,"tools":[{"name":"x","name":"y"}]}`,
	`{"ok":true,"tools":[{"name":1}]}`,
	`{"ok":"yes","tools":[]}`,
	`{"ok":true,"tools":{}}`,
	`{"ok":true,"tools":[{"name":"x","source":{"kind":1}}]}`,
	`{"ok":true,"tools":[{"name":"x","source":{"Kind":"connection","connection":"c"}}]}`,
	`{"ok":false,"error":"unauthorized","message":"no"}`,
	`{"ok":true,"error":null,"tools":[]}`,
	`{"ok":true,"tools":[]} trailing`,
	`{"ok":true,"tools":[{"name":"x",}]}`,
	`{"ok":true,"tools":[{"name":"x"}`,
	`{"ok":true,"tools":[{"name":"x","n":01}]}`,
	`{"ok":true,"tools":[{"name":"x","n":1.}]}`,
	`{"ok":true,"tools":[{"name":"x","n":tru}]}`,
	"{\"ok\":true,\"tools\":[{\"name\":\"x\ty\"}]}",
	`[]`,
	``,
	`{"ok":true,"tools":[{"name":"x"}],"starting":["slow"]}`,
	`{"ok":true,"tools":[],"Starting":["slow"]}`,
}

// TestListingStarting: the listing's connections still starting
// (docs/wire.md#the-tool-listing) reach Listing, empty names dropped; a
// listing without them has none.
func TestListingStarting(t *testing.T) {
	for body, want := range map[string][]string{
		`{"ok":true,"tools":[{"name":"read"}],"starting":["slow",""]}`: {"slow"},
		`{"ok":true,"tools":[{"name":"read"}]}`:                        nil,
	} {
		c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) })
		l, err := c.Listing(ctxT(t), Binding{})
		if err != nil || len(l.Tools) != 1 || !reflect.DeepEqual(l.Starting, want) {
			t.Errorf("Listing of %s = %+v, %v", body, l, err)
		}
	}
}

// TestDecodeListingAgrees: what decodeListing accepts, encoding/json
// decodes to the same answer without error; what it refuses is left to
// encoding/json (the caller's fallback).
func TestDecodeListingAgrees(t *testing.T) {
	accepted := 0
	for _, in := range append(listingCases, string(listing10k())) {
		var fast toolsAnswer
		if !fast.decodeListing([]byte(in)) {
			if !reflect.DeepEqual(fast, toolsAnswer{}) {
				t.Errorf("%.80q: refused but left %+v", in, fast)
			}
			continue
		}
		accepted++
		var slow toolsAnswer
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		dec.UseNumber()
		if err := dec.Decode(&slow); err != nil {
			t.Errorf("%.80q: accepted, but encoding/json says %v", in, err)
			continue
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%.80q:\n fast %+v\n slow %+v", in, fast, slow)
		}
	}
	if accepted < 10 {
		t.Errorf("only %d listings decoded directly", accepted)
	}
}

// TestToolsListingDirect: a large ordinary listing is decoded directly
// (not by reflection), its strings cut from one copy of the body: a few
// allocations in all, not some per entry.
func TestToolsListingDirect(t *testing.T) {
	body := listing10k()
	var a toolsAnswer
	if !a.decodeListing(body) || len(a.Tools) != 10000 || a.Tools[1].Source.Group() != "conn01" {
		t.Fatalf("the 10,000-tool listing was not decoded directly: %d tools", len(a.Tools))
	}
	allocs := testing.AllocsPerRun(3, func() { a.decodeListing(body) })
	if allocs > 1000 {
		t.Fatalf("%v allocations for 10,000 entries", allocs)
	}
}

func FuzzDecodeListing(f *testing.F) {
	for _, c := range listingCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var fast toolsAnswer
		if !fast.decodeListing(in) {
			return
		}
		var slow toolsAnswer
		dec := json.NewDecoder(bytes.NewReader(in))
		dec.UseNumber()
		if err := dec.Decode(&slow); err != nil {
			t.Fatalf("accepted, but encoding/json says %v", err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast %+v\nslow %+v", fast, slow)
		}
	})
}
