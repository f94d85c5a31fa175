package demo

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"
)

// Backends are the two sample backends, each on its own ephemeral port of
// 127.0.0.1.
type Backends struct {
	// CalculatorURL is the calculator's SOAP endpoint,
	// http://127.0.0.1:port/calculator (GET with ?wsdl: its WSDL).
	CalculatorURL string
	// QuotesURL is the quote service's base URL, http://127.0.0.1:port;
	// quotes are at /quotes/{symbol}.
	QuotesURL string

	servers []backend
}

type backend struct {
	ln  net.Listener
	srv *http.Server
}

// Listen binds both backends; Run serves them.
func Listen() (*Backends, error) {
	b := &Backends{}
	calc, err := b.listen(Calculator())
	if err != nil {
		return nil, err
	}
	quotes, err := b.listen(Quotes())
	if err != nil {
		b.close()
		return nil, err
	}
	b.CalculatorURL = "http://" + calc + "/calculator"
	b.QuotesURL = "http://" + quotes
	return b, nil
}

func (b *Backends) listen(h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	b.servers = append(b.servers, backend{ln, &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}})
	return ln.Addr().String(), nil
}

func (b *Backends) close() {
	for _, s := range b.servers {
		s.ln.Close()
	}
}

// Run serves both backends until ctx ends, then shuts them down.
func (b *Backends) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, s := range b.servers {
		g.Go(func() error {
			if err := s.srv.Serve(s.ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		})
	}
	g.Go(func() error {
		<-gctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		var err error
		for _, s := range b.servers {
			err = errors.Join(err, s.srv.Shutdown(sctx))
		}
		return err
	})
	return g.Wait()
}
