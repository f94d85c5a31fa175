package model

import "time"

// InboundWSSConfig is a service's stored inbound WS-Security policy as the
// admin API shows it (DESIGN 10.2): the policy with each password as its
// credential metadata envelope. A service without a stored policy has the
// zero config with mode off.
type InboundWSSConfig struct {
	ServiceID              string           `json:"serviceId"`
	Mode                   string           `json:"mode"`
	UsernameTokens         []InboundWSSUser `json:"usernameTokens"`
	TrustedCertificatesPEM []string         `json:"trustedCertificatesPem"`
	RequireSignature       bool             `json:"requireSignature"`
	RequireTimestamp       bool             `json:"requireTimestamp"`
	MaxClockSkewSeconds    int              `json:"maxClockSkewSeconds"`
	UpdatedAt              *time.Time       `json:"updatedAt,omitempty"`
	UpdatedBy              string           `json:"updatedBy,omitempty"`
}

// InboundWSSUser is one accepted username; Password holds the sealed
// password, which JSON shows only as its metadata envelope.
type InboundWSSUser struct {
	Username string     `json:"username"`
	Password Credential `json:"password"`
}

// DefaultInboundWSSConfig is the policy of a service that has none.
func DefaultInboundWSSConfig(serviceID string) InboundWSSConfig {
	return InboundWSSConfig{ServiceID: serviceID, Mode: WSSModeOff, UsernameTokens: []InboundWSSUser{},
		TrustedCertificatesPEM: []string{}}
}

// InboundWSSPasswordAAD binds a sealed inbound password to its service and
// username.
func InboundWSSPasswordAAD(serviceID, username string) string {
	return "service/" + serviceID + "/inboundWssPassword/" + username
}
