package upstream

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"golang.org/x/sync/singleflight"
)

// Token cache tuning.
const (
	tokenMargin         = 30 * time.Second
	tokenDefaultTTL     = 5 * time.Minute
	tokenFetchTimeout   = 15 * time.Second
	maxTokenAnswerBytes = 64 << 10
)

// checkAuth reports an invalid or incomplete auth configuration as
// KindAuthConfig before anything is sent.
func checkAuth(b Backend) error {
	p, s := b.Profile, b.Secrets
	switch p.AuthType {
	case "", model.AuthNone:
	case model.AuthBasic:
		if p.Username == "" || s.Password == "" {
			return authError("basic auth needs a username and a password")
		}
	case model.AuthBearer:
		if s.Token == "" {
			return authError("bearer auth needs a token")
		}
	case model.AuthAPIKeyHeader:
		if s.APIKey == "" {
			return authError("api_key_header auth needs an API key")
		}
		if name := p.APIKeyHeaderName; name != "" && !validHeaderName(name) {
			return authError("api_key_header auth: invalid header name")
		}
	case model.AuthOAuth2ClientCredentials:
		if p.TokenURL == "" || p.ClientID == "" || s.ClientSecret == "" {
			return authError("oauth2_client_credentials needs a token URL, a client id and a client secret")
		}
		if u, err := url.Parse(p.TokenURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return authError("oauth2_client_credentials: token URL must be an absolute http(s) URL")
		}
	default:
		return authError("unknown auth type %q", p.AuthType)
	}
	return nil
}

// validHeaderName reports whether name is an HTTP token.
func validHeaderName(name string) bool {
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return name != ""
}

// applyAuth sets the auth header of hreq.
func (c *Client) applyAuth(ctx context.Context, rt http.RoundTripper, b Backend, hreq *http.Request) error {
	p, s := b.Profile, b.Secrets
	switch p.AuthType {
	case model.AuthBasic:
		hreq.SetBasicAuth(p.Username, s.Password)
	case model.AuthBearer:
		hreq.Header.Set("Authorization", "Bearer "+s.Token)
	case model.AuthAPIKeyHeader:
		name := p.APIKeyHeaderName
		if name == "" {
			name = model.DefaultAPIKeyHeaderName
		}
		hreq.Header.Set(textproto.CanonicalMIMEHeaderKey(name), s.APIKey)
	case model.AuthOAuth2ClientCredentials:
		tok, err := c.tokens.get(ctx, rt, b, c.now)
		if err != nil {
			return err
		}
		hreq.Header.Set("Authorization", "Bearer "+tok)
	}
	return nil
}

// tokenCache holds OAuth2 access tokens per profile version. Concurrent
// misses for one key share a single fetch.
type tokenCache struct {
	mu      sync.Mutex
	entries map[string]tokenEntry
	group   singleflight.Group
}

type tokenEntry struct {
	token  string
	expiry time.Time
}

// InvalidateToken drops the cached OAuth2 token of a profile, for
// example after the backend answered 401.
func (c *Client) InvalidateToken(b Backend) {
	c.tokens.mu.Lock()
	delete(c.tokens.entries, tokenKey(b))
	c.tokens.mu.Unlock()
}

func tokenKey(b Backend) string {
	p := b.Profile
	return strings.Join([]string{p.ProfileID, strconv.FormatInt(p.UpdatedAt.UnixNano(), 10), p.TokenURL, p.ClientID,
		p.Scope}, "\x00")
}

// get returns a valid token, fetching it when the cache has none.
func (tc *tokenCache) get(ctx context.Context, rt http.RoundTripper, b Backend, now func() time.Time) (string, error) {
	key := tokenKey(b)
	tc.mu.Lock()
	e, ok := tc.entries[key]
	tc.mu.Unlock()
	if ok && now().Before(e.expiry) {
		return e.token, nil
	}
	v, err, _ := tc.group.Do(key, func() (any, error) {
		tc.mu.Lock()
		e, ok := tc.entries[key]
		tc.mu.Unlock()
		if ok && now().Before(e.expiry) {
			return e.token, nil
		}
		// The fetch outlives one caller's cancellation: others wait for it.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tokenFetchTimeout)
		defer cancel()
		tok, ttl, err := fetchToken(fctx, rt, b)
		if err != nil {
			return "", err
		}
		margin := min(tokenMargin, ttl/2)
		tc.mu.Lock()
		tc.entries[key] = tokenEntry{token: tok, expiry: now().Add(ttl - margin)}
		tc.mu.Unlock()
		return tok, nil
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// fetchToken runs the client credentials grant (RFC 6749 4.4) with the
// client authenticated by HTTP basic auth.
func fetchToken(ctx context.Context, rt http.RoundTripper, b Backend) (string, time.Duration, error) {
	p := b.Profile
	form := url.Values{"grant_type": {"client_credentials"}}
	if p.Scope != "" {
		form.Set("scope", p.Scope)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", 0, authError("token request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString(
		[]byte(url.QueryEscape(p.ClientID)+":"+url.QueryEscape(b.Secrets.ClientSecret))))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return "", 0, authError("token endpoint: %v", redactURLError(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswerBytes))
	if err != nil {
		return "", 0, authError("token endpoint answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return "", 0, authError("token endpoint answered HTTP %d", resp.StatusCode)
	}
	var answer struct {
		AccessToken string          `json:"access_token"`
		TokenType   string          `json:"token_type"`
		ExpiresIn   json.RawMessage `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || answer.AccessToken == "" {
		return "", 0, authError("token endpoint answer has no access_token")
	}
	if answer.TokenType != "" && !strings.EqualFold(answer.TokenType, "bearer") {
		return "", 0, authError("token endpoint answered token type %q, want bearer", answer.TokenType)
	}
	ttl := tokenDefaultTTL
	if secs, err := strconv.ParseInt(strings.Trim(string(answer.ExpiresIn), `"`), 10, 64); err == nil && secs > 0 {
		ttl = time.Duration(secs) * time.Second
	}
	return answer.AccessToken, ttl, nil
}

// redactURLError drops the URL from a *url.Error, which could carry
// userinfo; the operation and cause remain.
func redactURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
