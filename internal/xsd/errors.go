package xsd

import (
	"errors"
	"fmt"
)

// ImportError is the one error type of WSDL and schema import: it names the
// file and line at fault and says why, so the admin API can render
// details{file, line, reason}.
type ImportError struct {
	File   string // location of the document at fault
	Line   int    // 1-based; 0 when unknown
	Reason string
	Err    error // the underlying error, if any
}

func (e *ImportError) Error() string {
	msg := e.Reason
	if e.Err != nil {
		if msg == "" {
			msg = e.Err.Error()
		} else {
			msg += ": " + e.Err.Error()
		}
	}
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, msg)
	}
	return msg
}

func (e *ImportError) Unwrap() error { return e.Err }

// errorf returns an ImportError at file:line with a formatted reason.
func errorf(file string, line int, format string, args ...any) *ImportError {
	return &ImportError{File: file, Line: line, Reason: fmt.Sprintf(format, args...)}
}

// AsImportError returns err as an *ImportError when it is one.
func AsImportError(err error) (*ImportError, bool) {
	var ie *ImportError
	ok := errors.As(err, &ie)
	return ie, ok
}
