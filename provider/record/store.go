package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentio/agentio/provider"
)

// fileVersion is the version of the store file format this package writes
// and reads.
const fileVersion = 1

// A file is one recording as stored: the request (redacted) and how the
// call ended. Raw JSON of the provider types (tool call arguments, schemas)
// is kept as strings, so it comes back byte for byte even when it is not
// valid JSON.
type file struct {
	Version int    `json:"version"`
	Key     string `json:"key"`
	Model   string `json:"model,omitempty"`
	// Request is the redacted request, decoded (numbers as json.Number) so
	// that the key can be checked against it.
	Request any `json:"request"`
	// Response is the reply of a Generate call.
	Response *wireResponse `json:"response,omitempty"`
	// Chunks are the chunks of a Stream call, in order.
	Chunks []wireChunk `json:"chunks,omitempty"`
	// Stream marks a Stream call (its chunks may be none).
	Stream bool `json:"stream,omitempty"`
	// Stopped marks a stream its caller stopped reading after Chunks.
	Stopped bool `json:"stopped,omitempty"`
	// Error is the error the call failed with.
	Error *wireError `json:"error,omitempty"`
}

type wireToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireResponse struct {
	Text          string              `json:"text,omitempty"`
	ToolCalls     []wireToolCall      `json:"tool_calls,omitempty"`
	Refusal       string              `json:"refusal,omitempty"`
	StopReason    provider.StopReason `json:"stop_reason,omitempty"`
	RawStopReason string              `json:"raw_stop_reason,omitempty"`
	Usage         provider.Usage      `json:"usage"`
	Model         string              `json:"model,omitempty"`
	Provider      string              `json:"provider,omitempty"`
	Retries       int                 `json:"retries,omitempty"`
}

type wireChunk struct {
	Text     string                  `json:"text,omitempty"`
	ToolCall *provider.ToolCallDelta `json:"tool_call,omitempty"`
	Response *wireResponse           `json:"response,omitempty"`
}

// The kinds of a recorded error.
const (
	errorKindProvider = "provider" // a *provider.Error, alone
	errorKindOther    = "other"    // any other error, kept as its text
)

type wireError struct {
	Kind string `json:"kind"`
	// Message is the error's text, as Error() returned it.
	Message string `json:"message"`
	// Provider is the *provider.Error in the chain, as it encodes itself.
	Provider *provider.Error `json:"provider,omitempty"`
}

func toWireCalls(calls []provider.ToolCall) []wireToolCall {
	var out []wireToolCall
	for _, c := range calls {
		out = append(out, wireToolCall{ID: c.ID, Name: c.Name, Arguments: string(c.Arguments)})
	}
	return out
}

func fromWireCalls(calls []wireToolCall) []provider.ToolCall {
	var out []provider.ToolCall
	for _, c := range calls {
		tc := provider.ToolCall{ID: c.ID, Name: c.Name}
		if c.Arguments != "" {
			tc.Arguments = json.RawMessage(c.Arguments)
		}
		out = append(out, tc)
	}
	return out
}

func toWireResponse(r *provider.Response) *wireResponse {
	if r == nil {
		return nil
	}
	return &wireResponse{Text: r.Text, ToolCalls: toWireCalls(r.ToolCalls), Refusal: r.Refusal,
		StopReason: r.StopReason, RawStopReason: r.RawStopReason, Usage: r.Usage, Model: r.Model, Provider: r.Provider, Retries: r.Retries}
}

func (w *wireResponse) response() *provider.Response {
	if w == nil {
		return nil
	}
	return &provider.Response{Text: w.Text, ToolCalls: fromWireCalls(w.ToolCalls), Refusal: w.Refusal,
		StopReason: w.StopReason, RawStopReason: w.RawStopReason, Usage: w.Usage, Model: w.Model, Provider: w.Provider, Retries: w.Retries}
}

func toWireChunk(c provider.Chunk) wireChunk {
	w := wireChunk{Text: c.Text, Response: toWireResponse(c.Response)}
	if c.ToolCall != nil {
		d := *c.ToolCall
		w.ToolCall = &d
	}
	return w
}

func (w wireChunk) chunk() provider.Chunk {
	c := provider.Chunk{Text: w.Text, Response: w.Response.response()}
	if w.ToolCall != nil {
		d := *w.ToolCall
		c.ToolCall = &d
	}
	return c
}

func toWireError(err error) *wireError {
	w := &wireError{Kind: errorKindOther, Message: err.Error()}
	var pe *provider.Error
	if errors.As(err, &pe) {
		w.Provider = pe
		if error(pe) == err {
			w.Kind = errorKindProvider
		}
	}
	return w
}

// err turns a recorded error back into an error: the *provider.Error when
// the call failed with one alone, else a [*ReplayedError] with the text,
// unwrapping to the *provider.Error the chain held, if any.
func (w *wireError) err() error {
	pe := w.Provider
	if w.Kind == errorKindProvider && pe != nil {
		return pe
	}
	re := &ReplayedError{Message: w.Message}
	if pe != nil {
		re.Err = pe
	}
	return re
}

func decodeTree(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var t any
	if err := d.Decode(&t); err != nil {
		return nil, err
	}
	return t, nil
}

// canonical encodes v compactly: object keys sorted (as encoding/json
// writes maps), no HTML escaping.
func canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// keyOf returns the store key of a redacted request tree recorded for
// model: the hex SHA-256 of the canonical encoding of both.
func keyOf(model string, tree any) (string, error) {
	b, err := canonical(map[string]any{"model": model, "request": tree})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// encodeIndented writes a recording indented, for people to read and
// diff.
func encodeIndented(f any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeFile reads a store file and checks its shape: the version, a key
// that is the hash of the request it holds, and one way the call ended.
// The error is a *FileError naming path.
func decodeFile(path string, data []byte) (*file, error) {
	bad := func(format string, args ...any) error {
		return &FileError{Path: path, Err: fmt.Errorf(format, args...)}
	}
	var f file
	if err := decodeOne(path, data, &f, true, "recording"); err != nil {
		return nil, err
	}
	if f.Version != fileVersion {
		return nil, bad("version %d, want %d", f.Version, fileVersion)
	}
	if _, ok := f.Request.(map[string]any); !ok {
		return nil, bad("request is not an object")
	}
	key, err := keyOf(f.Model, f.Request)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	if f.Key != key {
		return nil, bad("key %.12s does not match the request (hash %.12s): was the request edited?", f.Key, key)
	}
	if f.Response != nil && (f.Stream || f.Chunks != nil) {
		return nil, bad("both a response and a stream")
	}
	if f.Response != nil && f.Error != nil {
		return nil, bad("both a response and an error")
	}
	if !f.Stream && (f.Chunks != nil || f.Stopped) {
		return nil, bad("chunks without stream")
	}
	if !f.Stream && f.Response == nil && f.Error == nil {
		return nil, bad("no response, stream or error")
	}
	if f.Stopped && f.Error != nil {
		return nil, bad("a stream both stopped and failed")
	}
	for i, c := range f.Chunks {
		if c.Response != nil && (i != len(f.Chunks)-1 || f.Stopped || f.Error != nil) {
			return nil, bad("chunks[%d]: a response before the end of the stream", i)
		}
	}
	if e := f.Error; e != nil {
		if e.Kind != errorKindProvider && e.Kind != errorKindOther {
			return nil, bad("error: unknown kind %q", e.Kind)
		}
		if e.Kind == errorKindProvider && e.Provider == nil {
			return nil, bad("error: kind provider without its fields")
		}
	}
	return &f, nil
}

// readFile reads the recording of key from dir; fs.ErrNotExist (wrapped)
// when there is none.
func readFile(dir, key string) (*file, error) {
	path := filepath.Join(dir, key+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := decodeFile(path, data)
	if err != nil {
		return nil, err
	}
	if f.Key != key {
		return nil, &FileError{Path: path, Err: fmt.Errorf("holds the recording of key %.12s", f.Key)}
	}
	return f, nil
}

// writeFile writes data as the recording of key in dir atomically: to a
// temporary file in dir, then renamed over the old one, so a reader sees
// the old recording or the new one, never part of one.
func writeFile(dir, key string, data []byte) error {
	tmp, err := os.CreateTemp(dir, "."+key+".*.tmp")
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, key+".json"))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// decodeOne decodes data, the file at path, into v: exactly one JSON value
// with no field v lacks, numbers kept as written when useNumber. The error
// is a *FileError naming path (what says what the file holds).
func decodeOne(path string, data []byte, v any, useNumber bool, what string) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if useNumber {
		d.UseNumber()
	}
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return &FileError{Path: path, Err: err}
	}
	if _, err := d.Token(); err != io.EOF {
		return &FileError{Path: path, Err: errors.New("data after the " + what)}
	}
	return nil
}
