package model

import "fmt"

// FieldError reports an invalid input field: which one and why. Reason
// never quotes the submitted value, so a rejected secret cannot leak
// through an error message.
type FieldError struct {
	Field  string
	Index  int // position in a list field, or -1
	Reason string
}

// Error implements error.
func (e *FieldError) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("%s[%d]: %s", e.Field, e.Index, e.Reason)
	}
	return e.Field + ": " + e.Reason
}

// fieldErr returns a FieldError without an index.
func fieldErr(field, reason string) *FieldError {
	return &FieldError{Field: field, Index: -1, Reason: reason}
}
