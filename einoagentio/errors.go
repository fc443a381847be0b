package einoagentio

import "errors"

// ErrInvalidOption is returned (wrapped, with what is wrong) for a nil
// model or schema, or options that cannot work together.
var ErrInvalidOption = errors.New("einoagentio: invalid option")
