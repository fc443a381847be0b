package extract

// A Source says how a [Candidate] was found. The zero value names no source.
type Source string

// The sources, from the most to the least trusted.
const (
	// SourceWhole means the whole reply, less blanks and reasoning blocks,
	// is the value.
	SourceWhole Source = "whole"
	// SourceFence means the value is the content of a fenced code block.
	SourceFence Source = "fence"
	// SourceScan means the scan for balanced values found it in prose.
	SourceScan Source = "scan"
	// SourceRepaired means the value did not parse and was repaired (see
	// [WithRepair]); the candidate's Fixes say how.
	SourceRepaired Source = "repaired"
)

// A Candidate is one JSON value found in a reply.
//
// JSON is always valid JSON. Unless Source is [SourceRepaired], it is exactly
// the input bytes text[Start:End] (a copy: the candidate never aliases the
// input). A repaired candidate spans the text it was rebuilt from and lists
// every change in Fixes. The caller owns JSON and Fixes; a Candidate is a
// plain value, safe to read from many goroutines.
type Candidate struct {
	// JSON is the value's bytes: valid JSON.
	JSON []byte
	// Start and End are the byte span of the value in the input.
	Start, End int
	// Source says how the value was found.
	Source Source
	// Fixes lists the repairs applied, in input order; empty unless repaired.
	Fixes []Fix
}

// Truncated reports whether repair had to close a value the reply left open
// at its end (a [FixTruncated] fix): the model was cut off, and the value may
// lack content it meant to write.
func (c Candidate) Truncated() bool {
	for _, f := range c.Fixes {
		if f.Kind == FixTruncated {
			return true
		}
	}
	return false
}
