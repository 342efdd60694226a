package generated_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/generated/inputgen"
	"github.com/agsh-dev/agsh/internal/testcorpus"
	"github.com/agsh-dev/agsh/internal/testtier"
)

type tool struct {
	file   string
	schema json.RawMessage
}

// loadCorpus returns the inputSchema of every tool file under dir (a
// testcorpus set).
func loadCorpus(t testing.TB, dir string) []tool {
	files := testcorpus.Files(t, dir)
	var out []tool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var def struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(b, &def); err != nil || len(def.InputSchema) == 0 {
			t.Fatalf("%s: no inputSchema (%v)", f, err)
		}
		out = append(out, tool{file: f, schema: def.InputSchema})
	}
	return out
}

// checkFlags asserts no two leaves share a flag and every leaf is reachable
// by exactly one flag.
func checkFlags(t testing.TB, name string, c *generated.Command) {
	t.Helper()
	seen := map[string]bool{}
	paths := map[string]bool{}
	for _, f := range c.Flags {
		if seen[f.Name] {
			t.Fatalf("%s: flag %s used twice", name, f.Name)
		}
		seen[f.Name] = true
		key := strings.Join(f.Path, "\x00")
		if paths[key] {
			t.Fatalf("%s: property %s has two flags", name, f.Property())
		}
		paths[key] = true
		if c.Lookup(f.Name) != f || c.LookupPath(f.Path) != f {
			t.Fatalf("%s: flag %s is not reachable", name, f.Name)
		}
		if !strings.HasPrefix(f.Name, "-") || strings.ContainsAny(f.Name, "= ") {
			t.Fatalf("%s: bad flag spelling %q", name, f.Name)
		}
		switch f.Name {
		case "-h", "--help", "--target", "--team", "--bearer-token", "--session", "--continuation-token", "--output":
			t.Fatalf("%s: property %s took reserved flag %s", name, f.Property(), f.Name)
		}
	}
	for _, f := range c.Flags {
		for i := 1; i < len(f.Path); i++ {
			if paths[strings.Join(f.Path[:i], "\x00")] {
				t.Fatalf("%s: leaf %s lies under leaf %s", name, f.Property(), strings.Join(f.Path[:i], "."))
			}
		}
	}
}

// canonical is the JSON of v with sorted keys and numbers as written.
func canonical(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "unencodable: " + err.Error()
	}
	return strings.TrimSpace(buf.String())
}

// roundTrip generates an input, writes it as flags, parses them back and
// compares, also after a trip through the wire. It reports false when the
// schema admits no input in the domain.
func roundTrip(t testing.TB, name string, schema json.RawMessage, c *generated.Command, r *rand.Rand) bool {
	t.Helper()
	in, err := inputgen.Generate(schema, r)
	if errors.Is(err, inputgen.ErrNoValue) {
		return false
	}
	if err != nil {
		t.Fatalf("%s: Generate: %v", name, err)
	}
	args, err := inputgen.Argv(c, in)
	if err != nil {
		t.Fatalf("%s: Argv(%s): %v", name, canonical(in), err)
	}
	p, err := c.Parse(args)
	if err != nil {
		t.Fatalf("%s: Parse(%q): %v", name, args, err)
	}
	want := canonical(in)
	if got := canonical(p.Input); got != want {
		t.Fatalf("%s: round trip of %q\n got %s\nwant %s", name, args, got, want)
	}
	if err := c.Validate(p); err != nil {
		t.Fatalf("%s: Validate after Parse(%q): %v", name, args, err)
	}
	if len(p.Operands)+len(p.Globals) > 0 || p.Help {
		t.Fatalf("%s: Parse(%q) saw operands %q globals %v help %v", name, args, p.Operands, p.Globals, p.Help)
	}
	dec := json.NewDecoder(bytes.NewReader(p.JSON()))
	dec.UseNumber()
	var wire any
	if err := dec.Decode(&wire); err != nil {
		t.Fatalf("%s: JSON() is not JSON: %v", name, err)
	}
	if got := canonical(wire); got != want {
		t.Fatalf("%s: after the wire\n got %s\nwant %s", name, got, want)
	}
	return true
}

func TestCorpusRoundTripBig(t *testing.T) {
	testtier.Big(t)
	testcorpus.Each(t, testCorpusRoundTrip)
}

func testCorpusRoundTrip(t *testing.T, set testcorpus.Set) {
	tools := loadCorpus(t, set.Dir)
	n := 20
	if testing.Short() {
		n = 5
	}
	var flags, trips, none int
	for i, tl := range tools {
		c, err := generated.Build(tl.schema, generated.BuildOptions{})
		if err != nil {
			t.Fatalf("%s: Build: %v", tl.file, err)
		}
		checkFlags(t, tl.file, c)
		flags += len(c.Flags)
		for j := 0; j < n; j++ {
			if roundTrip(t, tl.file, tl.schema, c, rand.New(rand.NewPCG(uint64(i), uint64(j)))) {
				trips++
			} else {
				none++
			}
		}
	}
	if trips == 0 {
		t.Fatal("no round trip ran")
	}
	t.Logf("%d tools, %d flags, %d round trips, %d schemas without a domain input", len(tools), flags, trips, none)
}

func TestSeedRoundTrip(t *testing.T) {
	for i, s := range generated.SeedSchemas() {
		c, err := generated.Build(json.RawMessage(s), generated.BuildOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		checkFlags(t, s, c)
		for j := 0; j < 30; j++ {
			roundTrip(t, s, json.RawMessage(s), c, rand.New(rand.NewPCG(uint64(i), uint64(j))))
		}
	}
}

// FuzzMapping builds arbitrary schemas and parses arbitrary words: no
// panic, no hang, no duplicate flag, every leaf reachable, and the round
// trip of a generated input.
func FuzzMapping(f *testing.F) {
	for _, s := range generated.SeedSchemas() {
		f.Add(s, uint64(1), "--name\nx")
	}
	var files []string
	for _, set := range testcorpus.Available(f) {
		files = append(files, testcorpus.Files(f, set.Dir)...)
	}
	for i := 0; i < len(files); i += 25 {
		b, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		var def struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(b, &def) == nil {
			f.Add(string(def.InputSchema), uint64(i), "--owner=x\n--\n-h")
		}
	}
	f.Fuzz(func(t *testing.T, schema string, seed uint64, words string) {
		c, err := generated.Build(json.RawMessage(schema), generated.BuildOptions{})
		if err != nil {
			var se *generated.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("Build error %T: %v", err, err)
			}
			return
		}
		checkFlags(t, schema, c)
		if p, err := c.Parse(strings.Split(words, "\n")); err == nil {
			if !json.Valid(p.JSON()) {
				t.Fatalf("Parse(%q).JSON() = %s", words, p.JSON())
			}
			_ = c.Validate(p)
			_ = c.RejectOperands(p)
		}
		for j := uint64(0); j < 3; j++ {
			roundTrip(t, "fuzz", json.RawMessage(schema), c, rand.New(rand.NewPCG(seed, j)))
		}
	})
}
