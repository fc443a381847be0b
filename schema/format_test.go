package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentio/agentio/schema"
)

// TestFormatAssertion checks each asserted format on values a model
// writes, valid and near misses.
func TestFormatAssertion(t *testing.T) {
	tests := []struct {
		format string
		valid  []string
		bad    []string
	}{
		{"date-time",
			[]string{"2024-05-01T13:45:00Z", "2024-05-01t13:45:00.123+02:00", "2016-12-31T23:59:60Z", "2024-02-29T00:00:00-05:30"},
			[]string{"2024-05-01 13:45:00", "2024-05-01T13:45:00", "not a date", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T13:45:60Z", "2024-5-1T13:45:00Z"}},
		{"date", []string{"2024-05-01", "2000-02-29"}, []string{"2024-05-1", "1900-02-29", "2024-13-01", "01/05/2024", "2024-05-01T00:00:00Z"}},
		{"time", []string{"13:45:00Z", "08:30:00.5-07:00", "23:59:60Z", "00:59:60+01:00"}, []string{"13:45", "13:45:00", "25:00:00Z", "12:00:60Z"}},
		{"duration", []string{"P3D", "PT4H", "P1Y2M3DT4H5M6S", "P2W", "PT5S", "P1M"}, []string{"P", "PT", "3 days", "P1D2M", "P1W2D", "PT1S2M"}},
		{"email", []string{"name@example.com", "first.last+tag@sub.example.org", `"odd name"@example.com`, "a@[192.0.2.1]", "a@[IPv6:2001:db8::1]"},
			[]string{"invalid_email", "name@", "@example.com", "a..b@example.com", ".a@example.com", "a@-example.com", "a b@example.com"}},
		{"hostname", []string{"example.com", "a-b.c0", "localhost"}, []string{"-example.com", "exa_mple.com", "a..b", "", "example.com-"}},
		{"ipv4", []string{"192.0.2.1", "0.0.0.0"}, []string{"256.0.0.1", "192.0.2", "192.0.02.1", "::1"}},
		{"ipv6", []string{"2001:db8::1", "::", "::ffff:192.0.2.1"}, []string{"2001:db8:::1", "192.0.2.1", "fe80::1%eth0", "12345::"}},
		{"uri", []string{"https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@example.com", "http://[2001:db8::1]:8080/"},
			[]string{"/relative/path", "example.com", "http://exa mple.com", "https://example.com/%zz", "http://example.com:80a/"}},
		{"uri-reference", []string{"/relative/path", "../a?b", "#frag", "https://example.com"}, []string{"a b", "\\\\server", "%g1"}},
		{"iri", []string{"https://例え.jp/パス"}, []string{"/例え"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"}},
		{"uri-template", []string{"https://example.com/{id}", "/search{?q,lang}", "{+path:5}/x{#frag*}"}, []string{"/{id", "/id}", "{a b}", "{x:0}"}},
		{"json-pointer", []string{"", "/items/0", "/a~1b/~0c"}, []string{"items", "/a~2"}},
		{"relative-json-pointer", []string{"0", "1/name", "2#"}, []string{"/a", "01", "-1/a", "1#/a"}},
		{"regex", []string{"^[a-z]+$", "(a|b)*"}, []string{"(", "a{2,1}"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			s, err := schema.ParseWith([]byte(`{"type":"string","format":"`+tt.format+`"}`), &schema.ParseOptions{AssertFormat: true})
			require.NoError(t, err)
			plain, err := schema.Parse([]byte(`{"type":"string","format":"` + tt.format + `"}`))
			require.NoError(t, err)
			for _, v := range tt.valid {
				assert.Empty(t, s.Validate(v), "%q should be a valid %s", v, tt.format)
			}
			for _, v := range tt.bad {
				vs := s.Validate(v)
				if assert.Len(t, vs, 1, "%q should not be a valid %s", v, tt.format) {
					assert.Equal(t, "format", vs[0].Keyword)
					assert.Equal(t, "/format", vs[0].SchemaPath)
					assert.Contains(t, vs[0].Message, `(format '`+tt.format+`')`)
				}
				assert.Empty(t, plain.Validate(v), "without AssertFormat, format is an annotation")
			}
		})
	}
}

// TestFormatAssertionApplicators checks that an asserted format decides
// anyOf, oneOf and not as any other assertion does, that formats apply to
// strings only, and that unknown formats stay annotations.
func TestFormatAssertionApplicators(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		value  any
		valid  bool
	}{
		{"anyOf picks the matching format", `{"anyOf":[{"format":"email"},{"format":"uuid"}]}`, "a@example.com", true},
		{"anyOf with no matching format", `{"anyOf":[{"format":"email"},{"format":"uuid"}]}`, "nope", false},
		{"oneOf decided by format", `{"oneOf":[{"type":"string","format":"date"},{"type":"string","format":"date-time"}]}`, "2024-05-01", true},
		{"not of a format accepts a non-match", `{"not":{"format":"email"}}`, "nope", true},
		{"not of a format refuses a match", `{"not":{"format":"email"}}`, "a@example.com", false},
		{"non-strings pass", `{"format":"email"}`, 12.0, true},
		{"unknown format is an annotation", `{"format":"phone"}`, "x", true},
		{"idn formats are not asserted", `{"format":"idn-email"}`, "x", true},
		{"nested property", `{"properties":{"at":{"format":"date-time"}}}`, map[string]any{"at": "yesterday"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.ParseWith([]byte(tt.schema), &schema.ParseOptions{AssertFormat: true})
			require.NoError(t, err)
			vs := s.Validate(tt.value)
			assert.Equal(t, tt.valid, len(vs) == 0, "%v", vs)
		})
	}
}

func FuzzFormats(f *testing.F) {
	for _, s := range []string{"2024-05-01T13:45:00Z", "a@[IPv6:::1]", "http://[::1", "{+a,b:3}", "1#", "P1Y2M", "%", "http://a@b:c"} {
		f.Add(s)
	}
	s, err := schema.ParseWith([]byte(`{"anyOf":[`+
		`{"format":"date-time"},{"format":"date"},{"format":"time"},{"format":"duration"},{"format":"email"},{"format":"hostname"},`+
		`{"format":"ipv4"},{"format":"ipv6"},{"format":"uri"},{"format":"uri-reference"},{"format":"iri"},{"format":"iri-reference"},`+
		`{"format":"uuid"},{"format":"uri-template"},{"format":"json-pointer"},{"format":"relative-json-pointer"},{"format":"regex"}]}`),
		&schema.ParseOptions{AssertFormat: true})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, v string) {
		_ = s.Validate(v) // must not panic
	})
}
