// Package preprocess holds the per-sample preprocessing that training and
// prediction share: Unit makes every sample zero-mean with unit L2 norm (the
// paper's normalisation), Deskew straightens and centres an image by its
// moments. A model applies the preprocessing it was trained with to every
// sample it predicts, so the learner calls these functions; data readers
// and experiments call them too (package dataset forwards them).
package preprocess
