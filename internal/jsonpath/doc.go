// Package jsonpath is the one syntax agentio writes and reads instance
// locations in: violation paths, coercion and repair records, crosscheck
// rules, lint positions and re-ask texts all go through it, so a path one
// package writes is a path every other reads back to the same place.
//
// The syntax is the JSONPath subset agentio needs:
//
//	$                 the root
//	$.name            a member whose name is ASCII letters, digits, '_'
//	                  and '$' (not starting with a digit): $.$defs.item
//	$['any name']     any other member name, quoted; \' \\ \n \r \t
//	                  \uXXXX and \xHH escape what cannot stand raw
//	$[3]              an element
//	$[*]              every element or member (a pattern, see Parse)
//
// [Format] writes the quoted form for every name that is not plain, so
// Parse(Format(p)) is p for every path, whatever its names hold: '$', '.',
// quotes, brackets, control characters, invalid UTF-8. [Parse] also reads
// what people write by hand: "-" in a dotted name ($.due-date) and
// double-quoted names.
package jsonpath
