package gemini

import (
	"errors"
	"strings"

	"google.golang.org/genai"

	"github.com/agentio/agentio/provider"
)

// classify turns an SDK error into a *provider.Error. A cancelled or
// expired ctx stays reachable with errors.Is through Err.
func classify(err error) error {
	e := &provider.Error{Kind: provider.ErrorOther, Provider: Name, Err: err}
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		var p *genai.APIError
		if !errors.As(err, &p) || p == nil {
			return e
		}
		apiErr = *p
	}
	e.StatusCode, e.Code, e.Message = apiErr.Code, apiErr.Status, apiErr.Message
	e.Kind = kindOf(apiErr.Code, apiErr.Status, apiErr.Message)
	return e
}

// kindOf classifies an API failure by its HTTP status and gRPC-style
// status: RESOURCE_EXHAUSTED is a rate limit, UNAVAILABLE overloaded, and an
// INVALID_ARGUMENT about the response or parameters schema a schema
// rejection.
func kindOf(code int, status, message string) provider.ErrorKind {
	switch status {
	case "RESOURCE_EXHAUSTED":
		return provider.ErrorRateLimited
	case "UNAVAILABLE":
		return provider.ErrorOverloaded
	case "UNAUTHENTICATED", "PERMISSION_DENIED":
		return provider.ErrorAuth
	}
	kind := provider.KindForStatus(code)
	if kind == provider.ErrorInvalidRequest && schemaComplaint(message) {
		return provider.ErrorSchemaRejected
	}
	return kind
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
