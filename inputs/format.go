package inputs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentio/agentio/internal/jsonraw"
)

// Block delimiters.
const (
	openTag  = "<inputs>"
	closeTag = "</inputs>"
)

// Format renders an autonomous agent's parameters into the text the model
// receives. The prompt parameter (key "prompt", or the one [WithPromptKey]
// names) must be a string; without it Format returns an error wrapping
// [ErrNoPrompt]. With no other parameter the result is the prompt unchanged
// (unless the prompt starts with the line `<inputs>`: it then follows an
// empty block, so that [Parse] reads it back as a prompt). Otherwise it is an `<inputs>` block with one `key: value` line per other
// parameter, `</inputs>`, an empty line, then the prompt:
//
//	<inputs>
//	topic: AI Safety
//	max_words: 200
//	</inputs>
//
//	Create content about this topic.
//
// Values render as described in the package documentation ("Values"); the
// line order is [WithOrder]'s, then [WithSchema]'s, then sorted by key.
// A key that is not a simple identifier yields a [*KeyError], a value with
// no JSON form a [*ValueError]; nothing is returned beside an error.
// Format does not modify params and is safe for concurrent use.
func Format(params map[string]any, opts ...Option) (string, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return "", err
	}
	p, ok := params[cfg.promptKey]
	if !ok {
		return "", fmt.Errorf("%w: no %q parameter", ErrNoPrompt, shorten(cfg.promptKey))
	}
	prompt, ok := p.(string)
	if !ok {
		return "", fmt.Errorf("%w: %q is %T, not a string", ErrNoPrompt, shorten(cfg.promptKey), p)
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != cfg.promptKey {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	keys = cfg.arrange(keys)
	return render(prompt, keys, func(dst []byte, key string) ([]byte, error) {
		return appendEntry(dst, key, params[key])
	})
}

// FormatJSON is [Format] for parameters given as the bytes of a JSON object,
// such as the `parameters` of an API request. It keeps what a decoded Go map
// loses: the lines follow the order in which the object lists its keys (as
// a Python dict keeps them), nested objects keep their key order, and
// numbers keep the text the caller wrote (1.0 stays 1.0, 3e2 stays 3e2).
// [WithOrder] and [WithSchema] still take precedence over the document's
// order. Besides Format's errors it returns an error wrapping
// [ErrNotJSON] (and the *json.SyntaxError) for malformed input,
// [ErrNotObject] for JSON that is not an object, and a [*KeyError] with
// [ErrDuplicateKey] for a key the object repeats. data is not modified or
// retained.
func FormatJSON(data []byte, opts ...Option) (string, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return "", err
	}
	members, err := jsonraw.Members(data)
	if err != nil {
		return "", objectError(err)
	}
	var (
		prompt    string
		hasPrompt bool
		keys      = make([]string, 0, len(members))
		values    = make(map[string][]byte, len(members))
	)
	for _, m := range members {
		if _, dup := values[m.Key]; dup || (hasPrompt && m.Key == cfg.promptKey) {
			return "", &KeyError{Key: m.Key, Err: ErrDuplicateKey}
		}
		if m.Key == cfg.promptKey {
			if m.Value[0] != '"' {
				return "", fmt.Errorf("%w: %q is not a string", ErrNoPrompt, shorten(cfg.promptKey))
			}
			prompt = jsonraw.Unquote(m.Value)
			hasPrompt = true
			continue
		}
		keys = append(keys, m.Key)
		values[m.Key] = m.Value
	}
	if !hasPrompt {
		return "", fmt.Errorf("%w: no %q parameter", ErrNoPrompt, shorten(cfg.promptKey))
	}
	keys = cfg.arrange(keys)
	return render(prompt, keys, func(dst []byte, key string) ([]byte, error) {
		return appendRaw(dst, key, values[key], false)
	})
}

// objectError returns the error of FormatJSON for what [jsonraw.Members]
// found wrong: [ErrNotJSON] with encoding/json's *json.SyntaxError, or
// [ErrNotObject].
func objectError(err error) error {
	var se *jsonraw.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%w: %w", ErrNotJSON, se.Err)
	}
	return ErrNotObject
}

// render assembles the result from the prompt and the entry of every key.
// The keys are checked first, so no line is written for an invalid name.
func render(prompt string, keys []string, entry func(dst []byte, key string) ([]byte, error)) (string, error) {
	if len(keys) == 0 {
		if strings.HasPrefix(prompt, openTag+"\n") {
			// Returned unchanged, this prompt would read back as a block
			// (see Parse); an empty block keeps the reading exact.
			return openTag + "\n" + closeTag + "\n\n" + prompt, nil
		}
		return prompt, nil
	}
	for _, k := range keys {
		if !validKey(k) {
			return "", &KeyError{Key: k, Err: ErrInvalidKey}
		}
	}
	dst := make([]byte, 0, 64+len(prompt)+32*len(keys))
	dst = append(dst, openTag+"\n"...)
	var err error
	for _, k := range keys {
		if dst, err = entry(dst, k); err != nil {
			return "", err
		}
	}
	dst = append(dst, closeTag+"\n\n"...)
	dst = append(dst, prompt...)
	return string(dst), nil
}

// arrange orders keys (given in the default order): the keys of c.order
// first, then those of c.schemaOrder, then the rest as given. keys is
// reordered in place and returned.
func (c *config) arrange(keys []string) []string {
	if len(c.order) == 0 && len(c.schemaOrder) == 0 {
		return keys
	}
	rank := make(map[string]int, len(c.order)+len(c.schemaOrder))
	for _, list := range [][]string{c.order, c.schemaOrder} {
		for _, k := range list {
			if _, ok := rank[k]; !ok {
				rank[k] = len(rank)
			}
		}
	}
	slices.SortStableFunc(keys, func(a, b string) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return keys
}
