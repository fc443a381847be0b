// Package jsonvalue decodes a JSON document into the value json.Unmarshal
// gives an any (map[string]any, []any, string, float64, bool, nil), several
// times faster and with a fraction of its allocations: one copy of the
// document, whose slices are the value's strings, one allocation per object,
// array and number, and none for most strings. Whatever it does not read
// itself (a syntax error, a string with escapes or invalid UTF-8, a number
// beyond float64) it hands to encoding/json, so its values and errors are
// encoding/json's own; a differential fuzz test holds it to that.
//
// Package schema decodes with it where it must build a value from a reply
// ([schema.Schema.Decode]), and enforce decodes every candidate with it.
package jsonvalue
