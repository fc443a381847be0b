package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// maxErrorBody bounds the error body read from a failed response;
// maxErrorText bounds a message taken from a body that is not the API's
// JSON.
const (
	maxErrorBody = 64 << 10
	maxErrorText = 500
)

// classify turns an SDK error into a *provider.Error; withSchema says the
// request carried a response schema or function parameters. A cancelled or
// expired ctx stays reachable with errors.Is through Err.
func classify(err error, withSchema bool) error {
	e := &provider.Error{Kind: provider.ErrOther, Provider: Name, Err: err}
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		var p *genai.APIError
		if !errors.As(err, &p) || p == nil {
			return e
		}
		apiErr = *p
	}
	e.StatusCode, e.Message = apiErr.Code, apiErr.Message
	if isStatusName(apiErr.Status) {
		// A body that is not the API's JSON leaves the HTTP status line
		// ("502 Bad Gateway") here: not a code of the API's.
		e.Code = apiErr.Status
	}
	e.Message = cut(e.Message, maxErrorText)
	e.Kind = kindOf(apiErr.Code, e.Code, apiErr.Message, withSchema)
	if e.Kind == provider.ErrInvalidRequest && keyRejected(apiErr.Details) {
		e.Kind = provider.ErrAuth
	}
	e.RetryAfter = retryDelay(apiErr.Details)
	return e
}

// retryDelay returns the wait a google.rpc.RetryInfo detail asks for (a
// 429's "retryDelay": "20s", a protobuf Duration in JSON: seconds with up
// to nine decimals and an "s"), or 0.
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		secs, ok := strings.CutSuffix(s, "s")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(secs, 64)
		if err != nil || f <= 0 || f > 24*3600 {
			continue
		}
		return time.Duration(math.Ceil(f * float64(time.Second)))
	}
	return 0
}

// isStatusName reports whether s looks like one of the API's status names
// (RESOURCE_EXHAUSTED): upper-case letters and underscores.
func isStatusName(s string) bool {
	for _, r := range s {
		if (r < 'A' || r > 'Z') && r != '_' {
			return false
		}
	}
	return s != ""
}

// kindOf classifies an API failure by its HTTP status and gRPC-style
// status: RESOURCE_EXHAUSTED is a rate limit, UNAVAILABLE overloaded, an
// INVALID_ARGUMENT about the API key an auth failure (the Gemini API
// answers a bad key with 400), and one about the response or parameters
// schema a schema rejection. So is the API's bare "Request contains an
// invalid argument." to a request with a schema (withSchema), which the API
// often answers a schema it cannot serve with: the enforcement loop then
// retries once without the schema, and a request broken for another reason
// fails again, with that error.
func kindOf(code int, status, message string, withSchema bool) provider.ErrorKind {
	switch status {
	case "RESOURCE_EXHAUSTED":
		return provider.ErrRateLimited
	case "UNAVAILABLE":
		return provider.ErrOverloaded
	case "UNAUTHENTICATED", "PERMISSION_DENIED":
		return provider.ErrAuth
	}
	kind := provider.KindForStatus(code)
	switch {
	case kind != provider.ErrInvalidRequest:
		return kind
	case strings.Contains(strings.ToLower(message), "api key"):
		return provider.ErrAuth
	case schemaComplaint(message):
		return provider.ErrSchemaRejected
	case withSchema && strings.EqualFold(strings.TrimSpace(message), "Request contains an invalid argument."):
		return provider.ErrSchemaRejected
	}
	return kind
}

// keyRejected reports whether the error details carry the reason the API
// gives a bad or expired key (google.rpc.ErrorInfo, reason API_KEY_INVALID).
func keyRejected(details []map[string]any) bool {
	for _, d := range details {
		if reason, _ := d["reason"].(string); strings.HasPrefix(reason, "API_KEY_") {
			return true
		}
	}
	return false
}

// schemaComplaint reports whether an invalid-argument message is about a
// schema: the API names the field (response_json_schema,
// generation_config.response_schema, function_declarations[0].parameters)
// or the schema's depth or size.
func schemaComplaint(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"schema", "function_declarations", "parameters", "propertyordering", "property_ordering"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// errorBodies is the transport of the clients [New] builds. The SDK reads
// a failed response's body as the API's {"error": {...}} object: plain text
// (a proxy's error page) or other JSON ({"message": "..."} from a gateway)
// then comes back with its raw body, or no message at all, as the error's
// message. errorBodies rewrites such a body into the API's shape, with the
// HTTP status as the code and the message found in it (or its text, cut
// short); the API's own bodies pass unchanged. (SDK v1.26 also
// dereferenced nil on a gateway's JSON and could not read an error in a
// stream; v1.77 does neither, and TestOwnClientGatewayError and
// TestStreamErrors would show it if either came back.)
type errorBodies struct{ base http.RoundTripper }

// RoundTrip sends r through the base transport and normalises the body of
// a response with a status of 400 or more; a successful one's body is kept
// for a call that asked for it (see rawBody).
func (t errorBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode < 400 {
		keepBody(r, resp)
		return resp, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	if err != nil {
		body = nil
	}
	if !isAPIErrorBody(body) {
		body = apiErrorBody(resp.StatusCode, string(body))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	resp.Header.Del("Content-Encoding")
	return resp, nil
}

// isAPIErrorBody reports whether body is the API's error JSON: an object
// whose "error" member is an object.
func isAPIErrorBody(body []byte) bool {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	return bytes.HasPrefix(bytes.TrimSpace(v.Error), []byte("{"))
}

// apiErrorBody returns the API's error JSON for a failed response whose
// body is not: the status as the code, a message found in the body's JSON
// ("message", or "error" as a string) or else its text, cut short.
func apiErrorBody(status int, body string) []byte {
	var v struct {
		Message string `json:"message"`
		Error   string `json:"error"`
	}
	msg := strings.TrimSpace(body)
	if json.Unmarshal([]byte(body), &v) == nil {
		switch {
		case v.Message != "":
			msg = v.Message
		case v.Error != "":
			msg = v.Error
		}
	}
	msg = cut(msg, maxErrorText)
	if msg == "" {
		msg = http.StatusText(status)
	}
	out, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": msg}}) // an int and a string always marshal
	return out
}

// cut returns s cut to at most n bytes on a character boundary, with "…"
// added when anything was cut. (Each adapter module keeps this copy: it is
// smaller than a dependency on a shared package would be.)
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
