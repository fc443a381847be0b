package extract

// This file writes JSON strings: the repairs write what they quote or
// requote through these.

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendQuotedInPlace appends s to *dst as [appendQuoted] does, in place:
// while *dst has room, only its length is stored, with no barrier of the
// collector.
func appendQuotedInPlace(dst *[]byte, s string) {
	if n := len(*dst); cap(*dst)-n >= len(s)+2 {
		// Copied as it is tested, byte by byte: what is quoted here is
		// most often a short key, and a call to copy it would cost more.
		// Bytes copied before one to escape lie past the length, unused.
		b := (*dst)[n : n+len(s)+2]
		in := b[1 : len(s)+1]
		i := 0
		for i < len(in) && strPlain[s[i]] {
			in[i] = s[i]
			i++
		}
		if i == len(s) {
			b[0] = '"'
			b[len(s)+1] = '"'
			*dst = (*dst)[:n+len(s)+2]
			return
		}
	}
	*dst = append(*dst, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c != '"' && c != '\\' {
			*dst = append(*dst, c)
		} else {
			*dst = appendEscaped(*dst, s[i:i+1])
		}
	}
	*dst = append(*dst, '"')
}

// appendEscaped appends s escaped for the inside of a JSON string.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
