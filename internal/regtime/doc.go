// Package regtime keeps the versions of named-schema registries: an
// entry's ModifiedAt, strictly increasing per name at microsecond
// precision, the precision every store keeps (PostgreSQL's timestamps,
// RFC 3339 text with six fraction digits).
package regtime
