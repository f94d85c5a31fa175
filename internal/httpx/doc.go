// Package httpx holds the HTTP middleware shared by every surface:
// correlation ids, access logging with secret redaction, panic recovery,
// request body limits and request metrics. Each middleware is a
// func(http.Handler) http.Handler in its own file.
package httpx
