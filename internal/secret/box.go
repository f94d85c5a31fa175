package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// sealedPrefix marks the format version of a sealed value: "v1:" followed by
// base64(nonce || ciphertext || tag).
const sealedPrefix = "v1:"

// ErrMalformed reports a sealed value that is not in a known format.
var ErrMalformed = errors.New("secret: malformed sealed value")

// ErrDecrypt reports a sealed value that does not authenticate: a wrong key,
// tampered data, or additional data that does not match.
var ErrDecrypt = errors.New("secret: sealed value does not authenticate")

// Box seals and opens credentials with AES-256-GCM. It is safe for
// concurrent use.
type Box struct {
	aead cipher.AEAD
}

// NewBox returns a Box for a KeySize-byte key.
func NewBox(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret: cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: gcm: %w", err)
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext with a fresh random nonce. aad names where the value
// lives (for example "settings/smtp_password"); Open must be given the same
// aad.
func (b *Box) Seal(plaintext []byte, aad string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("secret: nonce: %w", err)
	}
	sealed := b.aead.Seal(nonce, nonce, plaintext, []byte(aad))
	return sealedPrefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// Open decrypts a value produced by Seal with the same aad. It returns
// ErrMalformed or ErrDecrypt; neither error carries any part of the value.
func (b *Box) Open(sealed string, aad string) ([]byte, error) {
	body, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return nil, ErrMalformed
	}
	raw, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return nil, ErrMalformed
	}
	ns := b.aead.NonceSize()
	if len(raw) < ns+b.aead.Overhead() {
		return nil, ErrMalformed
	}
	plain, err := b.aead.Open(nil, raw[:ns], raw[ns:], []byte(aad))
	if err != nil {
		return nil, ErrDecrypt
	}
	return plain, nil
}

// SettingAAD is the additional data that binds a sealed credential setting
// (smtp_password) to its setting name, so it cannot be copied into another
// credential's row and opened there. The admin API seals with it and the
// alert mailer opens with it.
func SettingAAD(name string) string { return "settings/" + name }
