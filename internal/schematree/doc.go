// Package schematree knows where a JSON Schema document holds subschemas:
// which keywords take a schema, a list, a map of them, and the one walk
// over a document's subschemas that package schema (its checks, its
// reading of real-world schemas, its drafts) and package schema/dialect
// (its rewrites) share. It reads documents as internal/jsontree trees; the
// compiled schema has its own walk, in package schema.
package schematree
