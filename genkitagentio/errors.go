package genkitagentio

import "errors"

// ErrInvalidOption is returned (wrapped, with what is wrong) for a nil
// model, or options that cannot work together.
var ErrInvalidOption = errors.New("genkitagentio: invalid option")
