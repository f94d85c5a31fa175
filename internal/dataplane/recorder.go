package dataplane

import (
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// Recorder receives every runtime transaction. Record must never block
// the request: implementations queue and drop (counting) when full.
type Recorder interface {
	// Record takes ownership of rec.
	Record(rec *model.TxRecord)
}

// NopRecorder discards records.
type NopRecorder struct{}

// Record implements Recorder.
func (NopRecorder) Record(*model.TxRecord) {}

// Ms converts a duration to milliseconds with microsecond precision, the
// unit of the model.TxRecord latencies.
func Ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
