package registryhttp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// ProblemTypeBase prefixes the type of every problem this package writes:
// "urn:agentio:problem:invalid-schema". The part after it is stable; match
// on it.
const ProblemTypeBase = "urn:agentio:problem:"

// A Problem is the RFC 9457 problem document every error response of a
// [Handler] carries (Content-Type application/problem+json). Clients may
// decode error bodies into it.
type Problem struct {
	// Type identifies the kind of problem: ProblemTypeBase followed by
	// invalid-json, invalid-request, invalid-name, invalid-schema,
	// schema-not-found, name-taken, precondition-failed, body-too-large,
	// unsupported-media-type, method-not-allowed, not-found, unavailable or
	// registry-error.
	Type string `json:"type"`
	// Title is the HTTP status text.
	Title string `json:"title"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Detail says what is wrong, for a person or a model.
	Detail string `json:"detail"`
	// Instance is the request's path as the client sent it.
	Instance string `json:"instance,omitempty"`
	// Field names the body field at fault: "name", "schema", "description".
	Field string `json:"field,omitempty"`
	// Location is, for an invalid schema, where in the schema the problem
	// is, JSONPath style ("$.properties.severity.type").
	Location string `json:"location,omitempty"`
	// Offset is, for a body that is not valid JSON, the byte offset of the
	// fault.
	Offset *int64 `json:"offset,omitempty"`
}

// problem is a Problem being built: Type without its base, Title from
// Status.
type problem struct {
	Status   int
	Type     string
	Detail   string
	Field    string
	Location string
	Offset   *int64
}

func tooLarge(limit int64) *problem {
	return &problem{Status: http.StatusRequestEntityTooLarge, Type: "body-too-large",
		Detail: fmt.Sprintf("the body is larger than %d bytes", limit)}
}

func writeProblem(w http.ResponseWriter, r *http.Request, p *problem) {
	instance := r.URL.Path
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil && u.Path != "" {
		instance = u.Path // the path as sent, before any StripPrefix
	}
	doc := Problem{
		Type:     ProblemTypeBase + p.Type,
		Title:    http.StatusText(p.Status),
		Status:   p.Status,
		Detail:   p.Detail,
		Instance: instance,
		Field:    p.Field,
		Location: p.Location,
		Offset:   p.Offset,
	}
	data, err := json.Marshal(doc)
	if err != nil {
		http.Error(w, p.Detail, p.Status)
		return
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	w.Write(append(data, '\n'))
}
