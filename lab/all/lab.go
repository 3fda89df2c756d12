package all

// Plan holds override warnings from before any family's init until every
// lab variant is registered (zfamilies.go releases them).
import _ "github.com/tunelab/tunelab/internal/labinit"
