package schema

import (
	"errors"
	"fmt"

	"github.com/agentio/agentio/internal/jsonpath"
	"github.com/agentio/agentio/internal/jsontree"
)

// maxSchemaBytes is the largest schema document Parse accepts. With
// schematree.MaxDepth, it keeps Parse's time, memory and recursion bounded
// whatever the input.
const maxSchemaBytes = 8 << 20

// decodeTree decodes one schema document into a tree, or says where and
// why it is not one: an [*InvalidSchemaError] matching [ErrSyntax], or
// [ErrLimit] for one nested deeper than maxDepth.
func decodeTree(data []byte, maxDepth int) (*jsontree.Node, error) {
	n, err := jsontree.Decode(data, maxDepth)
	if err == nil {
		return n, nil
	}
	var de *jsontree.DecodeError
	if !errors.As(err, &de) {
		return nil, &InvalidSchemaError{Path: "$", Reason: err.Error(), Err: fmt.Errorf("%w: %w", ErrSyntax, err)}
	}
	ise := &InvalidSchemaError{Path: jsonpath.Format(de.Path), Reason: de.Reason}
	switch {
	case de.Trailing:
		ise.Err = ErrSyntax
	case errors.Is(de.Err, jsontree.ErrTooDeep):
		ise.Err = ErrLimit
	default:
		ise.Err = fmt.Errorf("%w: %w", ErrSyntax, de.Err)
	}
	return nil, ise
}
