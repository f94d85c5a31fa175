// Package model holds the domain types shared by every layer of s2r:
// settings, roles and bindings, audit events, the page shape of paginated
// endpoints, the services, versions and operations of the control plane,
// and the traffic: runtime transaction records (TxRecord, TxLog), edge
// events and transactions, discovery rows and their ingest batches, and
// bad-URL attempts. It does no I/O.
package model

// ObservabilityPageRecord is the one page shape of every paginated admin
// endpoint (SPEC 4.10):
//
//	{"items":[…],"page":1,"pageSize":50,"totalItems":N,"totalPages":M}
//
// page is 1-based; totalPages is ceil(totalItems/pageSize), 0 when there
// are no items. items is never null.
type ObservabilityPageRecord[T any] struct {
	Items      []T   `json:"items"`
	Page       int   `json:"page"`
	PageSize   int   `json:"pageSize"`
	TotalItems int64 `json:"totalItems"`
	TotalPages int   `json:"totalPages"`
}

// Pagination defaults and bounds shared by paginated endpoints.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// PageRequest is a validated page selection.
type PageRequest struct {
	Page     int // 1-based
	PageSize int // 1..MaxPageSize
}

// Offset returns the number of items before the page.
func (p PageRequest) Offset() int { return (p.Page - 1) * p.PageSize }

// NewPage builds the page record for items of page p out of total.
func NewPage[T any](items []T, p PageRequest, total int64) ObservabilityPageRecord[T] {
	if items == nil {
		items = []T{}
	}
	pages := 0
	if total > 0 && p.PageSize > 0 {
		pages = int((total + int64(p.PageSize) - 1) / int64(p.PageSize))
	}
	return ObservabilityPageRecord[T]{Items: items, Page: p.Page, PageSize: p.PageSize, TotalItems: total, TotalPages: pages}
}
