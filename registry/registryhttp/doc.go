// Package registryhttp serves a [registry.Registry] as JSON over HTTP, for
// hosts that let people or other services manage their named output
// schemas:
//
//	GET    /schemas          every entry's name, description and timestamps, sorted by name
//	POST   /schemas          create {"name", "description", "schema"}; 409 if the name is taken
//	GET    /schemas/{name}   the entry, with the schema as its author wrote it
//	PUT    /schemas/{name}   create or replace {"description", "schema"}
//	DELETE /schemas/{name}   remove it
//
// Mount it where you like:
//
//	h := registryhttp.New(reg, nil)
//	mux.Handle("/api/", http.StripPrefix("/api", h)) // GET /api/schemas/...
//
// # Access
//
// The handler authenticates no one and authorizes nothing: whoever reaches
// it may create, replace and delete schemas, and a schema is what every run
// that names it will demand of a model. Authentication is the host's job:
// wrap the handler in your own (a bearer token, mTLS, your service mesh's
// identity) before it faces anyone you do not trust with writes.
// examples/registry-server shows a bearer token for writes, compared in
// constant time.
//
// # Versions
//
// Each entry's ETag is its modified_at. GET answers If-None-Match with 304.
// PUT and DELETE honour If-Match (write only that version: 412 otherwise)
// and PUT honours If-None-Match: * (create only). When the registry is a
// [registry.ConditionalRegistry] (every registry of this module is), the
// check and the write are one atomic step; on another registry the check
// is made by a Get before the write, and two writers may still cross.
//
// # Errors
//
// Every error is an RFC 9457 problem document (application/problem+json)
// with a type, a title, the status, a detail, and where it applies the
// field at fault ("name", "schema", the body's offset) and the schema
// location of a schema that does not compile ("$.properties.severity.type").
// Bodies are capped (1 MiB unless Options.MaxBodyBytes says otherwise): a
// larger one is refused with 413 before it is read.
package registryhttp
