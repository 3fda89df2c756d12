// Package all imports every kernel family (and the external reference
// implementations they are compared against) for its side effect of
// registering them in kernels/variant. The harness and the CLI import it;
// production code imports the family packages it uses instead.
//
// Each family adds one file here with its blank import.
package all
