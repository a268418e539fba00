package blas

// BuildTags returns the build tags that change what this package and
// package kernel run — "purego" and "openblas" — that this binary was built
// with, in that order. The openblas tag is reported even when cgo was off
// and the backend is therefore missing; Available says what is compiled in.
func BuildTags() []string {
	var tags []string
	if puregoTag {
		tags = append(tags, "purego")
	}
	if openblasTag {
		tags = append(tags, "openblas")
	}
	return tags
}
