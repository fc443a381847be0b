package anthropic

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agentio/agentio/provider"
)

// maxErrorBody bounds the error body read when the SDK could not decode
// it; maxErrorText bounds a message taken from a body that is not the
// API's JSON.
const (
	maxErrorBody = 64 << 10
	maxErrorText = 500
)

// classify turns an SDK error into a *provider.Error. A cancelled or
// expired ctx stays reachable with errors.Is through Err. An error event
// of a stream, which came with the stream's 200, gets the status the API
// answers its type with, so it is classified as the same error before the
// stream would be.
func classify(err error) error {
	e := &provider.Error{Kind: provider.ErrOther, Provider: Name, Err: err}
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return e
	}
	e.StatusCode = apiErr.StatusCode
	e.RequestID = apiErr.RequestID
	e.Message, e.Code = bodyMessage(errorBody(apiErr))
	if e.Code == "" {
		e.Code = string(apiErr.Type())
	}
	if e.StatusCode < 400 {
		e.StatusCode = typeStatus(e.Code)
	}
	if apiErr.Response != nil {
		if e.RequestID == "" {
			e.RequestID = apiErr.Response.Header.Get("request-id")
		}
		e.RetryAfter = provider.RetryAfterFrom(apiErr.Response.Header, time.Now())
	}
	e.Kind = kindOf(e.StatusCode, e.Code, e.Message)
	return e
}

// errorBody returns the body of a failed response: the JSON the SDK
// decoded, or, for a body that is not JSON (a gateway's plain text), the
// body the SDK leaves readable on the response.
func errorBody(apiErr *sdk.Error) string {
	if raw := apiErr.RawJSON(); raw != "" {
		return raw
	}
	if apiErr.StatusCode < 400 || apiErr.Response == nil || apiErr.Response.Body == nil {
		// Below 400 it is an error event of a stream: the body is the rest
		// of the stream, not an error to read.
		return ""
	}
	body, _ := io.ReadAll(io.LimitReader(apiErr.Response.Body, maxErrorBody))
	return string(body)
}

// typeStatus is the HTTP status the API answers an error of type errType
// with, 0 for a type it does not document.
func typeStatus(errType string) int {
	switch errType {
	case "invalid_request_error":
		return 400
	case "authentication_error":
		return 401
	case "billing_error":
		return 402
	case "permission_error":
		return 403
	case "not_found_error":
		return 404
	case "request_too_large":
		return 413
	case "rate_limit_error":
		return 429
	case "api_error":
		return 500
	case "timeout_error":
		return 504
	case "overloaded_error":
		return 529
	}
	return 0
}

// kindOf classifies an API failure by its status and error type: 529
// (overloaded_error) is overloaded, and a 400 whose message is about the
// output format or a tool's input schema is a schema rejection.
func kindOf(status int, errType, message string) provider.ErrorKind {
	switch errType {
	case "overloaded_error":
		return provider.ErrOverloaded
	case "rate_limit_error":
		return provider.ErrRateLimited
	case "authentication_error", "permission_error":
		return provider.ErrAuth
	}
	kind := provider.KindForStatus(status)
	if kind == provider.ErrInvalidRequest && schemaComplaint(message) {
		return provider.ErrSchemaRejected
	}
	return kind
}

// schemaComplaint reports whether an invalid-request message is about the
// schema: the API names the field (output_config.format.schema,
// tools.0.custom.input_schema) or says the schema or the grammar compiled
// from it is unsupported or too complex.
func schemaComplaint(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"output_config", "output_format", "input_schema", "schema", "grammar"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// bodyMessage finds the message and error type in an error body:
// {"type":"error","error":{"type":"...","message":"..."}}, or the text
// itself cut short.
func bodyMessage(body string) (message, errType string) {
	var v struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal([]byte(body), &v) == nil {
		switch {
		case v.Error.Message != "" || v.Error.Type != "":
			return v.Error.Message, v.Error.Type
		case v.Message != "":
			return v.Message, ""
		}
	}
	return cut(strings.TrimSpace(body), maxErrorText), ""
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
