package baselines

// The generated variants production does not link: the baselines call
// the families' RegisterVariants, which take their lab tables
// (variant.LabTable).
import _ "github.com/tunelab/tunelab/lab/variants"
