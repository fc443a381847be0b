package jsonraw

import (
	"bytes"
	"encoding/json"
)

// A Member is one key and value of a JSON object.
type Member struct {
	// Key is the member's name, decoded as encoding/json decodes a string.
	Key string
	// Value is the member's value as the document writes it: one valid
	// JSON value, without the white space around it.
	Value json.RawMessage
}

// Members returns the members of the JSON object in data, in document
// order, every occurrence of a repeated key included (see "Duplicate keys"
// in the package documentation). An empty object gives no members (a nil
// slice). Data that is not exactly one JSON value gives a [*SyntaxError],
// another JSON value than an object [ErrNotObject]; nothing is returned
// beside an error.
//
// Members does not modify data. Each Value aliases data (its capacity is
// cut to its length, so appending to it copies): the caller must not modify
// data while it uses the values, and copies a value it keeps beyond that.
func Members(data []byte) ([]Member, error) {
	if !json.Valid(data) {
		return nil, syntaxError(data)
	}
	src := trimSpace(data)
	if src[0] != '{' {
		return nil, ErrNotObject
	}
	i := SkipSpace(src, 1)
	if src[i] == '}' {
		return nil, nil
	}
	members := make([]Member, 0, 8) // fewer steps of growth for the usual sizes
	for src[i] != '}' {
		end := StringEnd(src, i)
		key := Unquote(src[i:end])
		i = SkipSpace(src, end) // at ':'
		i = SkipSpace(src, i+1) // at the value
		end = ValueEnd(src, i)
		members = append(members, Member{Key: key, Value: src[i:end:end]})
		i = SkipSpace(src, end) // at ',' or '}'
		if src[i] == ',' {
			i = SkipSpace(src, i+1)
		}
	}
	return members, nil
}

// syntaxError describes the invalid data. It runs only on the error path,
// so it may take the slow road: encoding/json's own check for the
// *json.SyntaxError, and a decoder to tell trailing data from a broken value.
func syntaxError(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v) // checks the syntax before decoding anything
	reason := err.Error()
	var first json.RawMessage
	if json.NewDecoder(bytes.NewReader(data)).Decode(&first) == nil {
		reason = "data after the top-level value"
	}
	return &SyntaxError{Reason: reason, Err: err}
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(src []byte, i int) int {
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	return i
}

// trimSpace returns src without the JSON white space around it.
func trimSpace(src []byte) []byte {
	end := len(src)
	for end > 0 && isSpace(src[end-1]) {
		end--
	}
	return src[SkipSpace(src[:end], 0):end]
}

// StringEnd returns the index just past the closing quote of the JSON
// string that opens at src[i], in valid JSON; len(src) when it is not
// closed.
func StringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// ValueEnd returns the index just past the JSON value that starts at
// src[i], in valid JSON; len(src) when it does not end there.
func ValueEnd(src []byte, i int) int {
	if i >= len(src) {
		return len(src)
	}
	switch src[i] {
	case '"':
		return StringEnd(src, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(src); j++ {
			switch src[j] {
			case '"':
				j = StringEnd(src, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(src)
	}
	// A number or a literal runs to the next delimiter.
	j := i + 1
	for j < len(src) && !isSpace(src[j]) && src[j] != ',' && src[j] != '}' && src[j] != ']' {
		j++
	}
	return j
}
