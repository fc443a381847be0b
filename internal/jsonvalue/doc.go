// Package jsonvalue decodes a JSON document into the value json.Unmarshal
// gives an any (map[string]any, []any, string, float64, bool, nil), with
// fewer allocations (BenchmarkDecode measures both beside each other): one
// copy of the document, whose slices are the value's strings (each boxed once), one or
// two allocations per object, array and number, none per key. Whatever it
// does not read itself (a syntax error, a string with escapes or invalid
// UTF-8, a number beyond float64) it hands to encoding/json, so its values
// and errors are encoding/json's own; a differential fuzz test holds it to
// that.
//
// Its scanners of JSON strings and numbers ([ScanString], [ScanNumber],
// [ParseNumber]) read a string or a byte slice: package schema checks a
// document's bytes with them without decoding it, and decodes with the
// [Decoder] where it must build a value ([schema.Schema.Decode]), as enforce
// does for every candidate of a reply: there it reads the document in
// parts, building the arrays and objects it checks as it goes.
package jsonvalue
