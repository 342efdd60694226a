package generated

// SeedSchemas are the synthetic schemas of the table tests, for the fuzz
// and round-trip tests of package generated_test.
func SeedSchemas() []string {
	out := []string{parseSchema}
	for _, tt := range shapeTests {
		out = append(out, tt.schema)
	}
	return out
}
