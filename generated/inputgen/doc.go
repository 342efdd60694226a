// Package inputgen generates tool inputs that are valid against an input
// schema and lie in the round-trip domain of
// docs/mapping.md#the-round-trip-property (no nulls but those of a union of
// scalars that takes null, no empty arrays, no empty or undeclared-key
// objects at flattened positions), and writes such an input as command-line
// flags.
//
// It exists to test package generated: Parse(Argv(Generate(schema))) must
// give back the generated input. It reads schemas on its own, without the
// mapper's internals, so a disagreement between the two shows up as a
// failed round trip.
package inputgen
