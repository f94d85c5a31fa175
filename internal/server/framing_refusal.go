package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
)

// framingHeader carries a request head refusal from the connection's
// framing check (strictConn.refuse) to the handler chain (framingRefusal):
// "<token> <reason>", where the token is the connection's, so a client
// cannot send it.
const framingHeader = "X-S2r-Framing-Refusal"

type framingKey struct{}

// refusalRequest is the synthetic request that stands for a refused head
// on the engine, as strictConn.refuse writes it for net/http.
func refusalRequest(token, reason string) *http.Request {
	return &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/"}, RequestURI: "/", Host: "refused",
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Close: true, Body: http.NoBody,
		Header: http.Header{framingHeader: {token + " " + reason}}}
}

// withFramingToken returns ctx carrying the framing token of a
// connection (http.Server.ConnContext).
func withFramingToken(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, framingKey{}, token)
}

// framingRefusal answers the synthetic request that stands for a refused
// request head with 400 S2R-VAL-0400 naming the reason, and closes the
// connection. The header is removed from every other request, so no
// handler ever sees it.
func framingRefusal(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get(framingHeader)
		if v == "" {
			next.ServeHTTP(w, r)
			return
		}
		r.Header.Del(framingHeader)
		token, reason, _ := strings.Cut(v, " ")
		if want, _ := r.Context().Value(framingKey{}).(string); want == "" || token != want {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Connection", "close")
		apierr.Render(w, r, apierr.New(apierr.ValBadRequest, "request refused: "+reason+
			" (ambiguous framing is never forwarded)").WithDetail("reason", reason), apierr.RunInternal)
	})
}
