package langchaingoagentio

import "errors"

// ErrInvalidOption is returned (wrapped, with what is wrong) for a nil
// model, schema or Enforcer, or options that cannot work together.
var ErrInvalidOption = errors.New("langchaingoagentio: invalid option")
