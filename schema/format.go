package schema

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A formatCheck reports whether a string is valid for one "format" value
// and, when it is not, names what was expected ("an RFC 3339 date-time").
type formatCheck struct {
	valid func(string) bool
	what  string
}

// formats are the "format" values [ParseOptions.AssertFormat] asserts.
// Any other value stays an annotation, as the specification requires of
// formats an implementation does not know.
var formats = map[string]formatCheck{
	"date-time":             {isDateTime, "an RFC 3339 date-time such as 2024-05-01T13:45:00Z"},
	"date":                  {isDate, "an RFC 3339 full-date such as 2024-05-01"},
	"time":                  {isTime, "an RFC 3339 full-time with an offset such as 13:45:00Z"},
	"duration":              {isDuration, "an ISO 8601 duration such as P3DT4H"},
	"email":                 {isEmail, "an email address such as name@example.com"},
	"hostname":              {isHostname, "a host name such as api.example.com"},
	"ipv4":                  {isIPv4, "an IPv4 address such as 192.0.2.1"},
	"ipv6":                  {isIPv6, "an IPv6 address such as 2001:db8::1"},
	"uri":                   {func(s string) bool { return isURI(s, true, false) }, "an absolute URI such as https://example.com/path"},
	"uri-reference":         {func(s string) bool { return isURI(s, false, false) }, "a URI reference"},
	"iri":                   {func(s string) bool { return isURI(s, true, true) }, "an absolute IRI"},
	"iri-reference":         {func(s string) bool { return isURI(s, false, true) }, "an IRI reference"},
	"uuid":                  {isUUID, "a UUID such as 123e4567-e89b-12d3-a456-426614174000"},
	"uri-template":          {isURITemplate, "an RFC 6570 URI template"},
	"json-pointer":          {isJSONPointer, "a JSON Pointer such as /items/0"},
	"relative-json-pointer": {isRelativeJSONPointer, "a relative JSON Pointer such as 1/name"},
	"regex":                 {isRegex, "a regular expression"},
}

// digits reports whether s is n ASCII digits, and their value.
func digits(s string, n int) (int, bool) {
	if len(s) != n {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[0:4], 4)
	m, ok2 := digits(s[5:7], 2)
	d, ok3 := digits(s[8:10], 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

// isTime checks an RFC 3339 full-time: hh:mm:ss[.frac] then Z or ±hh:mm.
// A leap second (ss = 60) is valid only at 23:59:60 in UTC.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[0:2], 2)
	m, ok2 := digits(s[3:5], 2)
	sec, ok3 := digits(s[6:8], 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	offset := 0 // minutes east of UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3], 2)
		om, ok2 := digits(rest[4:6], 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	if sec == 60 {
		utc := ((h*60+m-offset)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

func isDateTime(s string) bool {
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	return isDate(s[:10]) && isTime(s[11:])
}

// durationRE is RFC 3339 appendix A's duration: weeks alone, or the date
// units in order (each run contiguous), then optionally T and the time
// units in order.
var durationRE = regexp.MustCompile(`^P(?:[0-9]+W|(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))$`)

func isDuration(s string) bool { return durationRE.MatchString(s) }

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// isHostname checks RFC 1123: at most 253 characters, dot-separated labels
// of 1 to 63 letters, digits and hyphens, none starting or ending with a
// hyphen.
func isHostname(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isEmail checks RFC 5321's Mailbox: a dot-atom or quoted local part, '@',
// and a host name or an address literal ([192.0.2.1], [IPv6:2001:db8::1]).
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || len(s) > 254 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !isQuotedLocal(local) && !isDotAtom(local) {
		return false
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(lit)
	}
	return isHostname(domain)
}

func isDotAtom(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, atom := range strings.Split(s, ".") {
		if atom == "" {
			return false
		}
		for i := 0; i < len(atom); i++ {
			c := atom[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0) {
				return false
			}
		}
	}
	return true
}

func isQuotedLocal(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
			if i >= len(s)-1 || s[i] < 32 || s[i] > 126 {
				return false
			}
		case c == '"' || c < 32 || c > 126:
			return false
		}
	}
	return true
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isURI checks RFC 3986 (RFC 3987 when iri): a scheme when absolute, an
// authority whose host is a name, an IPv4 address or a bracketed IPv6
// one, then characters allowed in a path, query and fragment, with
// well-formed percent-escapes.
func isURI(s string, absolute, iri bool) bool {
	rest := s
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' && isScheme(s[:i]) {
		rest = s[i+1:]
	} else if absolute {
		return false
	}
	frag := ""
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, frag = rest[:i], rest[i+1:]
	}
	if !uriChars(frag, "/?:@!$&'()*+,;=", iri) {
		return false
	}
	query := ""
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query = rest[:i], rest[i+1:]
	}
	if !uriChars(query, "/?:@!$&'()*+,;=", iri) {
		return false
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		path := ""
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			auth, path = auth[:i], auth[i:]
		}
		if !isAuthority(auth, iri) {
			return false
		}
		rest = path
	} else if !absolute && s == rest {
		// A relative reference's first segment may not hold a colon.
		first, _, _ := strings.Cut(rest, "/")
		if strings.IndexByte(first, ':') >= 0 {
			return false
		}
	}
	return uriChars(rest, "/:@!$&'()*+,;=", iri)
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

func isAuthority(s string, iri bool) bool {
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		if !uriChars(s[:i], ":!$&'()*+,;=", iri) {
			return false
		}
		s = s[i+1:]
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || !isIPv6(s[1:end]) {
			return false
		}
		host, port = "", s[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
		port = strings.TrimPrefix(port, ":")
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return uriChars(host, "!$&'()*+,;=", iri)
}

// uriChars reports whether s holds only unreserved characters, the extra
// ones given, and percent-escapes (and, for an IRI, non-ASCII letters).
func uriChars(s, extra string, iri bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 3
			continue
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !iri || r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) {
				return false
			}
			i += n
			continue
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0:
		case strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
		i++
	}
	return true
}

// isURITemplate checks RFC 6570's syntax: literals, and expressions in
// braces holding an optional operator and comma-separated variables, each
// with an optional :length or * modifier.
func isURITemplate(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '}':
			return false
		case '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return false
			}
			expr := s[i+1 : i+end]
			if expr != "" && strings.IndexByte("+#./;?&=,!@|", expr[0]) >= 0 {
				expr = expr[1:]
			}
			for _, v := range strings.Split(expr, ",") {
				if !isVarSpec(v) {
					return false
				}
			}
			i += end
		case ' ', '"', '<', '>', '\\', '^', '`', '|', 0x7f:
			return false
		default:
			if s[i] < 0x20 {
				return false
			}
		}
	}
	return true
}

func isVarSpec(v string) bool {
	name := v
	if n, ok := strings.CutSuffix(v, "*"); ok {
		name = n
	} else if i := strings.IndexByte(v, ':'); i >= 0 {
		name = v[:i]
		n, err := strconv.Atoi(v[i+1:])
		if err != nil || n < 1 || n > 9999 || v[i+1] == '0' {
			return false
		}
	}
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_':
		case c == '.' && i > 0 && name[i-1] != '.' && i < len(name)-1:
		case c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func isJSONPointer(s string) bool {
	if s != "" && s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	return true
}

func isRelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return false
	}
	return s[i:] == "#" || isJSONPointer(s[i:])
}

// isRegex accepts what Go's regexp (RE2 syntax) compiles, the dialect
// "pattern" is checked with here; ECMA-262 features RE2 lacks
// (lookaround, backreferences) are refused.
func isRegex(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

// usesFormat reports whether some subschema names a format in formats.
func (c *compiled) usesFormat() bool {
	for _, s := range c.order {
		if _, ok := formats[s.Format]; ok {
			return true
		}
	}
	return false
}
