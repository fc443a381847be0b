// Package jsonpos finds where in a JSON document a value is, for messages
// that name a line and column: a schema problem at
// "$.properties.severity.type" is at 7:15 of the file.
package jsonpos
