// Package wire holds the shapes that cross the wire between agsh and an
// agent-sdk deployment (docs/wire.md): the bodies of the routes, the rows
// they carry, the error envelope and its codes. The client (catalog)
// decodes them and the development deployment (internal/devserver) encodes
// them, so that both sides of the contract are checked against one
// definition.
//
// It holds shapes, not policy: which routes the client calls, which fields
// it assumes, how it tolerates an odd answer and what an answer means for
// the exit status live in the client beside each other (catalog's
// routes.go); how the development deployment answers lives in it. The one
// decoding here is Source's, because a type's JSON decoding cannot live
// apart from the type.
//
// It imports nothing of agsh, so that importing it brings neither side's
// code to the other.
package wire
