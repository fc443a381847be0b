package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/agentio/agentio/provider"
	"github.com/agentio/agentio/provider/openaicompat"
)

// maxErrorBody bounds the error body kept for classification;
// maxErrorText bounds a message taken from a body that is not JSON.
const (
	maxErrorBody = 64 << 10
	maxErrorText = 500
)

// A recorder keeps the status, request id and error body of the last HTTP
// response of one Generate call (the SDK may retry), for errors the SDK
// cannot decode itself. It belongs to one call.
type recorder struct {
	status    int
	requestID string
	header    http.Header
	body      []byte
}

// middleware is an SDK middleware that fills the recorder.
func (r *recorder) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if res == nil {
		return res, err
	}
	r.status = res.StatusCode
	r.requestID = openaicompat.RequestID(res.Header)
	r.header = res.Header
	r.body = nil
	if res.StatusCode >= 400 && res.Body != nil {
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		rest, _ := io.ReadAll(res.Body)
		res.Body.Close()
		r.body = body
		res.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), bytes.NewReader(rest)))
	}
	return res, err
}

// classify turns an SDK error into a *provider.Error. A cancelled or
// expired ctx stays reachable with errors.Is through Err.
func classify(err error, rec *recorder) error {
	e := &provider.Error{Kind: provider.ErrOther, Provider: Name, Err: err}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		e.StatusCode = apiErr.StatusCode
		e.Code = apiErr.Code
		if e.Code == "" {
			e.Code = apiErr.Type
		}
		e.Message = apiErr.Message
		if e.Message == "" && rec != nil && len(rec.body) > 0 {
			// Not OpenAI's error shape (a compatible server's, plain text).
			msg, code := bodyMessage(rec.body)
			e.Message = msg
			if e.Code == "" {
				e.Code = code
			}
		}
		if e.Message == "" {
			e.Message = strings.TrimSpace(apiErr.RawJSON())
		}
		if apiErr.Response != nil {
			e.RequestID = openaicompat.RequestID(apiErr.Response.Header)
			e.RetryAfter = provider.RetryAfterFrom(apiErr.Response.Header, time.Now())
		}
		e.Kind = kindOf(apiErr.StatusCode, apiErr.Param, e.Message)
		return e
	}
	if rec != nil && rec.status >= 400 {
		// The SDK could not decode the error body (a compatible server's
		// own shape, plain text): classify from what was recorded.
		e.StatusCode = rec.status
		e.RequestID = rec.requestID
		e.RetryAfter = provider.RetryAfterFrom(rec.header, time.Now())
		e.Message, e.Code = bodyMessage(rec.body)
		e.Kind = kindOf(rec.status, "", e.Message)
	}
	return e
}

// kindOf classifies an HTTP failure: a 400 or 422 that names the schema
// or response_format is a schema rejection.
func kindOf(status int, param, message string) provider.ErrorKind {
	kind := provider.KindForStatus(status)
	if (status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) && schemaComplaint(param, message) {
		return provider.ErrSchemaRejected
	}
	return kind
}

// schemaComplaint reports whether an error's param or message is about a
// response format or tool schema: OpenAI's "Invalid schema for
// response_format 'x'" (param response_format) or "Invalid schema for
// function 'f'" (param tools[0].function.parameters), or a compatible
// server's complaint about the JSON schema or the grammar built from it.
func schemaComplaint(param, message string) bool {
	p := strings.ToLower(param)
	if strings.Contains(p, "response_format") || strings.Contains(p, "parameters") || strings.Contains(p, "schema") ||
		strings.Contains(p, "text.format") {
		return true
	}
	m := strings.ToLower(message)
	for _, s := range []string{"schema", "response_format", "guided_json", "grammar"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// bodyMessage finds the message (and code) in an error body: OpenAI's
// {"error":{"message":...}}, {"error":"..."}, {"detail":"..."},
// {"message":"..."}, or the text itself.
func bodyMessage(body []byte) (message, code string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Detail  any             `json:"detail"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
			Code    any    `json:"code"`
			Type    string `json:"type"`
		}
		var s string
		switch {
		case len(v.Error) > 0 && json.Unmarshal(v.Error, &s) == nil && s != "":
			return s, ""
		case len(v.Error) > 0 && json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			code = inner.Type
			if c, ok := inner.Code.(string); ok && c != "" {
				code = c
			}
			return inner.Message, code
		case v.Message != "":
			return v.Message, ""
		case v.Detail != nil:
			if d, ok := v.Detail.(string); ok {
				return d, ""
			}
			b, _ := json.Marshal(v.Detail)
			return string(b), ""
		}
	}
	return cut(strings.TrimSpace(string(body)), maxErrorText), ""
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
