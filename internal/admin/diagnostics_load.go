package admin

import (
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// immutable is the 409 S2R-ADM-0410 of an edit of a version that is not a
// draft.
func immutable(v model.Version) error {
	return apierr.New(apierr.AdmImmutable, "version "+itoa(v.VersionNumber)+" is "+v.Status+
		": only a draft version can be edited; create a draft (POST /services/{serviceId}/versions)").
		WithDetail("versionId", v.VersionID).WithDetail("versionStatus", v.Status)
}
