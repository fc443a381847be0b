package schema

import (
	"embed"
	"strings"
)

// metaschemas holds this package's own rendering of the draft 2020-12
// meta-schema (the main document and one document per vocabulary, as the
// specification lays them out) and of the draft-07 meta-schema.
//
//go:embed metaschema/*.json
var metaschemas embed.FS

// builtinDocument returns the built-in meta-schema document at uri, if uri
// names one: http or https, with or without "www." and a trailing "#".
// A schema may $ref these documents without a loader, and a custom
// meta-schema may build on their vocabularies.
func builtinDocument(uri string) ([]byte, bool) {
	u := strings.TrimSuffix(uri, "#")
	u = strings.TrimPrefix(u, "https://")
	u = strings.TrimPrefix(u, "http://")
	u = strings.TrimPrefix(u, "www.")
	var name string
	switch {
	case u == "json-schema.org/draft/2020-12/schema":
		name = "draft2020-12"
	case u == "json-schema.org/draft-07/schema":
		name = "draft-07"
	case strings.HasPrefix(u, "json-schema.org/draft/2020-12/meta/"):
		name = strings.TrimPrefix(u, "json-schema.org/draft/2020-12/meta/")
		switch name {
		case "core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content":
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	data, err := metaschemas.ReadFile("metaschema/" + name + ".json")
	return data, err == nil
}
