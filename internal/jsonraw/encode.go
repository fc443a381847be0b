package jsonraw

import (
	"bytes"
	"encoding/json"
)

// Encode returns members written as a compact JSON object, in the order
// given, each Value written as it is (the caller makes sure it is one JSON
// value). A key given twice is written twice. No members give {}. The
// result is a new slice; members is not modified.
func Encode(members []Member) json.RawMessage {
	n := 2
	for _, m := range members {
		n += len(m.Key) + len(m.Value) + 4
	}
	dst := make([]byte, 0, n)
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = append(dst, m.Value...)
	}
	return append(dst, '}')
}

// AppendString appends s to dst as a JSON string, escaped as encoding/json
// escapes it except that '<', '>' and '&' stay as they are (a prompt full of
// tags stays readable): '"' and '\' escaped, control characters, U+2028 and
// U+2029 as escapes, an invalid UTF-8 byte as \ufffd. It returns the
// extended slice.
func AppendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return appendEncoded(dst, s)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendEncoded is AppendString for a string that needs escapes: it lets
// encoding/json choose them.
func appendEncoded(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...)
}
