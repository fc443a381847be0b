package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/provider"
)

// A Policy says whether a recorder calls the wrapped provider or replays.
type Policy int

// The policies. The zero Policy is not one of them: a policy is always chosen at
// the call site, so that no run replays or spends money by default.
const (
	// Record calls the wrapped provider for every request and writes
	// the call to the store, overwriting a recording of the same request.
	Record Policy = iota + 1
	// Replay never calls a provider: it answers from the store, and a
	// request with no recording fails with a [*MissError].
	Replay
	// RecordMissing answers from the store when it has a recording of
	// the request, and otherwise calls the wrapped provider and records the
	// call. Of batches, a recorded submission that failed (refused,
	// expired, cancelled) does not answer the same requests submitted
	// again, and a batch not recorded done is live: its polls past the
	// recording and its cancellation go to the provider.
	RecordMissing
)

// String returns "record", "replay" or "record_missing".
func (m Policy) String() string {
	switch m {
	case Record:
		return "record"
	case Replay:
		return "replay"
	case RecordMissing:
		return "record_missing"
	}
	return fmt.Sprintf("Policy(%d)", int(m))
}

// Options configure a recorder. A nil *Options is the zero Options; [New]
// copies it, so changing it afterwards has no effect. It is a struct, not
// functional options, because a recorder is configured once, often from a
// test's or an evaluation's setup, as the adapters and the directory
// registry are.
type Options struct {
	// Model labels the model behind the wrapped provider (a Request does
	// not name it: the adapter does). It enters every key, so that one store
	// can hold the recordings of several models and a replay under another
	// label misses. Empty is a label like any other.
	Model string
	// Secrets are strings (API keys, tokens) replaced by [Redacted]
	// wherever they occur in what is written: the request, the reply, the
	// error. An empty string is an error of [New].
	Secrets []string
	// Redact names request fields whose values are replaced by [Redacted]
	// before the key is computed, as paths into the recorded request
	// ("$.system", "$.messages[*].content", "$.tools[*].description"; the
	// members are named as in the store files). A field that a request does
	// not have is left alone; a path that does not parse is an error of
	// [New].
	Redact []string
	// Capabilities, when not nil, are reported instead of the wrapped
	// provider's: a replay without a provider reports the zero Capabilities
	// (text only) unless this says what the recorded one declared, and the
	// enforcement loop chooses its mode by them.
	Capabilities *provider.Capabilities
	// Logger receives the errors no caller is left to be told of: a
	// recording that could not be written after the caller stopped
	// reading a stream. Nil drops them (a replay of that stream then
	// misses).
	Logger *slog.Logger
}

// A recorder is the provider New returns. The store is the only thing
// calls share, and each file is written whole, by rename; the
// capabilities file is written before the first recording, and again
// before the next one when that write failed; a replay without a provider
// reads it in New.
type recorder struct {
	p      provider.Provider
	dir    string
	mode   Policy
	model  string // Options.Model, secrets replaced
	caps   *provider.Capabilities
	redact *redactor
	logger *slog.Logger

	capsMu      sync.Mutex
	capsWritten bool
}

// capabilitiesFile is the store file that keeps the capabilities of the
// provider recorded, so that a replay without one reports them and the
// enforcement loop chooses the mode it chose when recording. Its name is
// not a key: store lookups never read it.
const capabilitiesFile = "capabilities"

// streamingRecorder is a recorder whose wrapped provider streams (or that
// replays without one).
type streamingRecorder struct{ *recorder }

// New returns a provider that records the calls of p to the store in dir,
// or replays them from it, as mode says. The provider returned is a
// [provider.Streamer] when p is one, or when p is nil, and a
// [provider.BatchFinder] when p is a [provider.Batcher], or when p is nil
// (see the package's Batches section); it is safe for
// concurrent use (the wrapped provider must be, as any Provider), and two
// calls with the same request write the same file in turn, the last one
// staying.
//
// p may be nil only in [Replay]. In [Record] and
// [RecordMissing] New creates dir when it does not exist. opts may be
// nil. New fails, with an error matching [ErrInvalidOption], on a mode
// that is none of the three, an empty dir, an empty secret or a redaction
// path that does not parse, with the file system's error on a dir it
// cannot create, and, replaying without a provider or
// Options.Capabilities, with a [*FileError] when the store's capabilities
// file or recorded batch limits do not parse. No recording is read or written before a call.
func New(p provider.Provider, dir string, mode Policy, opts *Options) (provider.Provider, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	switch mode {
	case Record, RecordMissing:
		if p == nil {
			return nil, fmt.Errorf("%w: %s needs a provider to call", ErrInvalidOption, mode)
		}
	case Replay:
	default:
		return nil, fmt.Errorf("%w: unknown %s", ErrInvalidOption, mode)
	}
	if dir == "" {
		return nil, fmt.Errorf("%w: empty store directory", ErrInvalidOption)
	}
	r := &recorder{p: p, dir: dir, mode: mode, model: o.Model, redact: &redactor{}, logger: o.Logger}
	if o.Capabilities != nil {
		c := *o.Capabilities
		r.caps = &c
	}
	// A longer secret goes first, so that a secret inside another is not
	// left half replaced.
	secrets := slices.Clone(o.Secrets)
	slices.SortStableFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, s := range secrets {
		if s == "" {
			return nil, fmt.Errorf("%w: an empty secret", ErrInvalidOption)
		}
		pairs = append(pairs, s, Redacted)
	}
	if pairs != nil {
		r.redact.secrets = strings.NewReplacer(pairs...)
		r.redact.list = secrets
	}
	for _, s := range o.Redact {
		path, err := jsonpath.Parse(s, true)
		if err != nil {
			return nil, fmt.Errorf("%w: Redact: %w", ErrInvalidOption, err)
		}
		r.redact.fields = append(r.redact.fields, path)
	}
	r.model = r.redact.scrub(o.Model)
	if mode != Replay {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
	}
	if p == nil && r.caps == nil {
		c, err := readCapabilities(dir)
		if err != nil {
			return nil, err
		}
		r.caps = &c
	}
	_, streams := p.(provider.Streamer)
	if b, ok := p.(provider.Batcher); ok || p == nil {
		br, err := newBatchRecorder(r, b)
		if err != nil {
			return nil, err
		}
		if streams || p == nil {
			return streamingBatchRecorder{br, streamingRecorder{r}}, nil
		}
		return br, nil
	}
	if streams {
		return streamingRecorder{r}, nil
	}
	return r, nil
}

// Capabilities reports Options.Capabilities when set, else the wrapped
// provider's, else (a replay without one) those the store recorded, read
// by New; the zero Capabilities, a text-only provider, when the store has
// none.
func (r *recorder) Capabilities() provider.Capabilities {
	if r.caps != nil {
		return *r.caps
	}
	return r.p.Capabilities()
}

// readCapabilities reads the store's capabilities file: the zero
// Capabilities when there is none, a *FileError when it does not parse.
func readCapabilities(dir string) (provider.Capabilities, error) {
	return readSmallFile[provider.Capabilities](filepath.Join(dir, capabilitiesFile+".json"), "capabilities")
}

// readSmallFile reads the one JSON value of type T a store's file holds:
// the zero T when there is no file, a *FileError when it does not parse
// as exactly a T (what is after it named as what).
func readSmallFile[T any](path, what string) (T, error) {
	var v, zero T
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return zero, nil
	}
	if err != nil {
		return zero, &FileError{Path: path, Err: err}
	}
	if err := decodeOne(path, data, &v, false, what); err != nil {
		return zero, err
	}
	return v, nil
}

// writeCapabilities writes the capabilities of the provider recorded to
// the store before its first recording; after a failure, the next
// recording tries again.
func (r *recorder) writeCapabilities() error {
	r.capsMu.Lock()
	defer r.capsMu.Unlock()
	if r.capsWritten {
		return nil
	}
	data, err := json.MarshalIndent(r.Capabilities(), "", "  ")
	if err == nil {
		err = writeFile(r.dir, capabilitiesFile, append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("record: capabilities not written: %w", err)
	}
	r.capsWritten = true
	return nil
}

// A call is one request on its way to the store: its redacted tree and key.
type call struct {
	tree any
	key  string
}

func (r *recorder) prepare(req *provider.Request) (call, error) {
	tree, err := requestTree(req)
	if err != nil {
		return call{}, fmt.Errorf("record: encode request: %w", err)
	}
	tree = r.redact.request(tree)
	key, err := keyOf(r.model, tree)
	if err != nil {
		return call{}, fmt.Errorf("record: encode request: %w", err)
	}
	return call{tree: tree, key: key}, nil
}

// lookup returns the recording of c, nil when there is none.
func (r *recorder) lookup(c call) (*file, error) {
	f, err := readFile(r.dir, c.key)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

// Generate answers req from the store or from the wrapped provider, as the
// mode says, and records what the provider answered. A replayed reply is a
// fresh Response the caller owns; a replayed failure is the recorded error
// (see [ReplayedError]). A miss in [Replay] is a [*MissError]; a store
// file that cannot be read, a [*FileError]. A done ctx fails the call with
// ctx.Err(), replaying or not, and a call that fails with the context's
// error is not recorded. When the reply cannot be written, the
// error says why and the reply is returned beside it.
func (r *recorder) Generate(ctx context.Context, req *provider.Request) (*provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := r.prepare(req)
	if err != nil {
		return nil, err
	}
	if r.mode != Record {
		f, err := r.lookup(c)
		if err != nil {
			return nil, err
		}
		if f != nil && !f.Stopped {
			return f.generate()
		}
		if r.mode == Replay {
			if f != nil {
				return nil, stoppedMiss(r.dir, f)
			}
			return nil, miss(r.dir, c.key, r.model, c.tree)
		}
	}
	resp, err := r.p.Generate(ctx, req)
	if isContextError(ctx, err) {
		return resp, err
	}
	f := r.newFile(c)
	if err != nil {
		f.Error = toWireError(err)
	} else {
		f.Response = toWireResponse(resp)
	}
	if werr := r.write(f); werr != nil {
		if err != nil {
			return resp, errors.Join(err, werr)
		}
		return resp, werr
	}
	return resp, err
}

// generate returns what a Generate call replays from f: the response, the
// stream's chunks read by provider.Collect, or the error.
func (f *file) generate() (*provider.Response, error) {
	if f.Stream {
		var col provider.Collector
		for _, ch := range f.Chunks {
			col.Add(ch.chunk())
		}
		if f.Error != nil {
			return nil, f.Error.err()
		}
		return col.Response(), nil
	}
	if f.Error != nil {
		return nil, f.Error.err()
	}
	return f.Response.response(), nil
}

// Stream answers req from the store or from the wrapped provider, chunk by
// chunk, as the mode says. Recording, it passes each chunk on as it comes
// and writes the file when the stream ends, fails or the caller stops
// reading (then the recording stops there too, and marks it). Replaying,
// it yields the recorded chunks in order; a recording of a Generate call
// is sent as [provider.Chunks] sends a whole reply. A replay read past the
// end of a recording whose caller had stopped ends with a [*MissError].
// A done ctx ends the sequence with ctx.Err() at once, replaying or not;
// a stream that fails with the context's error is not recorded; a file
// that cannot be written ends the stream with the reason in place of its
// final chunk or error (a stream the caller left early has no one to tell,
// and a later replay misses).
func (s streamingRecorder) Stream(ctx context.Context, req *provider.Request) iter.Seq2[provider.Chunk, error] {
	r := s.recorder
	return func(yield func(provider.Chunk, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		c, err := r.prepare(req)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		if r.mode != Record {
			f, err := r.lookup(c)
			if err != nil {
				yield(provider.Chunk{}, err)
				return
			}
			if f != nil {
				r.replay(f, yield)
				return
			}
			if r.mode == Replay {
				yield(provider.Chunk{}, miss(r.dir, c.key, r.model, c.tree))
				return
			}
		}
		r.record(ctx, req, c, yield)
	}
}

func (r *recorder) replay(f *file, yield func(provider.Chunk, error) bool) {
	if !f.Stream {
		if f.Error != nil {
			yield(provider.Chunk{}, f.Error.err())
			return
		}
		for ch, err := range provider.Chunks(f.Response.response()) {
			if !yield(ch, err) {
				return
			}
		}
		return
	}
	for _, ch := range f.Chunks {
		if !yield(ch.chunk(), nil) {
			return
		}
	}
	switch {
	case f.Error != nil:
		yield(provider.Chunk{}, f.Error.err())
	case f.Stopped:
		yield(provider.Chunk{}, stoppedMiss(r.dir, f))
	}
}

// stoppedMiss is the miss of a call whose recording is a stream its caller
// stopped reading early: the reply goes on past what was recorded.
func stoppedMiss(dir string, f *file) *MissError {
	return &MissError{Key: f.Key, Dir: dir, Nearest: f.Key,
		Reason: fmt.Sprintf("the recorded stream stops after %d chunks, where its caller stopped reading", len(f.Chunks))}
}

func (r *recorder) record(ctx context.Context, req *provider.Request, c call, yield func(provider.Chunk, error) bool) {
	f := r.newFile(c)
	f.Stream = true
	for ch, err := range r.p.(provider.Streamer).Stream(ctx, req) {
		if err != nil {
			if isContextError(ctx, err) {
				yield(provider.Chunk{}, err)
				return
			}
			f.Error = toWireError(err)
			if werr := r.write(f); werr != nil {
				err = errors.Join(err, werr)
			}
			yield(provider.Chunk{}, err)
			return
		}
		f.Chunks = append(f.Chunks, toWireChunk(ch))
		if ch.Response != nil {
			if werr := r.write(f); werr != nil {
				yield(provider.Chunk{}, werr)
				return
			}
			// The final chunk was written; what follows it (nothing, by
			// the Streamer contract) is passed on unrecorded.
			if !yield(ch, nil) {
				return
			}
			continue
		}
		if !yield(ch, nil) {
			f.Stopped = true
			if werr := r.write(f); werr != nil && r.logger != nil {
				// No caller is left to tell; a replay of it misses.
				r.logger.ErrorContext(context.WithoutCancel(ctx), "record: a stream its caller stopped reading was not written", "key", f.Key, "err", werr)
			}
			return
		}
	}
	if f.Error == nil && (len(f.Chunks) == 0 || f.Chunks[len(f.Chunks)-1].Response == nil) {
		// Cut off: a replay reads it as truncated, as the caller did.
		if werr := r.write(f); werr != nil {
			yield(provider.Chunk{}, werr)
		}
	}
}

// isContextError reports whether err is ctx's own end: the caller's
// cancellation or deadline, not the model's answer.
func isContextError(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
}

func (r *recorder) newFile(c call) *file {
	return &file{Version: fileVersion, Key: c.key, Model: r.model, Request: c.tree}
}

// write scrubs the secrets from f's reply and writes it, refusing when a
// secret is still found in the bytes.
func (r *recorder) write(f *file) error {
	if err := r.writeCapabilities(); err != nil {
		return err
	}
	g := *f
	g.Response = cloneWireResponse(f.Response)
	g.Chunks = make([]wireChunk, len(f.Chunks))
	for i, ch := range f.Chunks {
		ch.Response = cloneWireResponse(ch.Response)
		if ch.ToolCall != nil {
			d := *ch.ToolCall
			ch.ToolCall = &d
		}
		g.Chunks[i] = ch
	}
	r.redact.stream(g.Chunks)
	for i := range g.Chunks {
		r.redact.chunk(&g.Chunks[i])
	}
	if f.Chunks == nil {
		g.Chunks = nil
	}
	if f.Error != nil {
		e := *f.Error
		if e.Provider != nil {
			p := *e.Provider
			e.Provider = &p
		}
		r.redact.error(&e)
		g.Error = &e
	}
	r.redact.response(g.Response)
	data, err := encodeIndented(&g)
	if err != nil {
		return fmt.Errorf("record: encode %.12s: %w", f.Key, err)
	}
	for _, s := range r.redact.list {
		if strings.Contains(string(data), s) {
			return fmt.Errorf("%w: recording %.12s not written", ErrSecret, f.Key)
		}
	}
	return writeFile(r.dir, f.Key, data)
}

func cloneWireResponse(w *wireResponse) *wireResponse {
	if w == nil {
		return nil
	}
	c := *w
	c.ToolCalls = slices.Clone(w.ToolCalls)
	return &c
}
