package compcache

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

// TestListingFormat: what the deployment may put in a name, a title or a
// source (tabs, line breaks, backslashes, text that looks like an escape)
// reads back as it was; each line is one tool.
func TestListingFormat(t *testing.T) {
	in := []catalog.ToolEntry{
		{Name: "ls", Source: catalog.Source{Kind: "authored"}},
		{Name: "tab\tname", Title: "two\nlines \\n and \\t, \\", Source: catalog.Source{Kind: "connection", Connection: "c\\", Connector: "x\ty"}},
		{Name: `\`, Title: "é ✓", Source: catalog.Source{Kind: "connection", Connection: "mon"}},
		{Name: "dup", Title: "first"},
		{Name: "dup", Title: "second"},
	}
	data, ok := encodeListing(in)
	if !ok {
		t.Fatal("encodeListing refused")
	}
	if got := bytes.Count(data, []byte("\n")); got != len(in)+1 {
		t.Errorf("%d lines for %d tools:\n%s", got, len(in), data)
	}
	out, ok := decodeListing(data)
	if !ok || !reflect.DeepEqual(out, in) {
		t.Fatalf("decodeListing = %+v %v, want %+v", out, ok, in)
	}
	if empty, ok := encodeListing(nil); !ok || string(empty) != listingHead {
		t.Errorf("the empty listing is %q", empty)
	} else if out, ok := decodeListing(empty); !ok || len(out) != 0 {
		t.Errorf("the empty listing reads as %+v %v", out, ok)
	}
}

// TestListingRefusesOtherFiles: a file that is not what encodeListing
// writes, however near, is not read at all (not the lines before the bad
// one).
func TestListingRefusesOtherFiles(t *testing.T) {
	good := "a\tA\tauthored\t\t\n"
	for name, data := range map[string]string{
		"the format before":  `{"ok":true,"tools":[{"name":"a"}]}`,
		"another version":    "agsh completion listing 2\n" + good,
		"no head":            good,
		"four fields":        listingHead + good + "b\tB\tauthored\t\n",
		"six fields":         listingHead + good + "b\tB\tauthored\t\t\t\n",
		"no final newline":   listingHead + strings.TrimSuffix(good, "\n"),
		"an empty name":      listingHead + good + "\t\tauthored\t\t\n",
		"a name too long":    listingHead + strings.Repeat("n", MaxNameBytes+1) + "\t\tauthored\t\t\n",
		"a title too long":   listingHead + "a\t" + strings.Repeat("t", MaxTitleBytes+1) + "\tauthored\t\t\n",
		"a bad escape":       listingHead + "a\\x\t\tauthored\t\t\n",
		"a lone backslash":   listingHead + "a\t\tauthored\t\t\\\n",
		"not UTF-8":          listingHead + "a\xff\t\tauthored\t\t\n",
		"an empty line":      listingHead + good + "\n",
		"a carriage return":  strings.ReplaceAll(listingHead, "\n", "\r\n") + good,
		"a head and nothing": strings.TrimSuffix(listingHead, "\n"),
	} {
		if out, ok := decodeListing([]byte(data)); ok {
			t.Errorf("%s: read as %+v", name, out)
		}
	}
	if out, ok := decodeListing([]byte(listingHead + good)); !ok || len(out) != 1 {
		t.Errorf("the good file: %+v %v", out, ok)
	}
}

// TestListingToolBound: a file of more than MaxTools lines is not read,
// whatever they hold.
func TestListingToolBound(t *testing.T) {
	var b strings.Builder
	b.WriteString(listingHead)
	for i := 0; i <= MaxTools; i++ {
		fmt.Fprintf(&b, "t%d\t\tauthored\t\t\n", i)
	}
	if _, ok := decodeListing([]byte(b.String())); ok {
		t.Errorf("%d tools read", MaxTools+1)
	}
	c, _ := openTemp(t)
	os.WriteFile(c.path(".tools"), []byte(b.String()), 0o600)
	if _, _, ok := c.Listing(); ok {
		t.Errorf("a planted file of %d tools read", MaxTools+1)
	}
}

// FuzzListing: no file makes decodeListing panic, and what it reads it
// writes back byte for byte (one file for one listing).
func FuzzListing(f *testing.F) {
	f.Add([]byte(listingHead + "a\tA\tauthored\t\t\n"))
	f.Add([]byte(listingHead + "t\\tn\ttwo\\nlines\tconnection\tc\\\\\tx\n"))
	f.Add([]byte(`{"ok":true,"tools":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, ok := decodeListing(data)
		if !ok {
			return
		}
		again, ok := encodeListing(tools)
		if !ok || !bytes.Equal(again, data) {
			t.Fatalf("read %q, written back as %q", data, again)
		}
	})
}
