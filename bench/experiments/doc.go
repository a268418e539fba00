// Package experiments reproduces the experiments of Kong & Wang's online
// discriminative dictionary learning paper: the error rates of ODDL and of
// the three baselines on MNIST and USPS (Table 1), their training times
// (Tables 2 and 5), the error against the dictionary size (Table 3), and the
// face recognition protocol on Extended Yale B (Table 4). The oddl command's
// "reproduce" subcommand is its front end.
//
// The methods (see Fit):
//
//   - oddl-paper: the paper's algorithm as written (PaperParams): one
//     shared reconstructive initialisation, codes of x on D in the joint
//     phase, λ0 = 1, no task-driven term, the jointly learned W scored by
//     W·a; the paper's values are printed beside this method only;
//   - oddl: package oddl with its defaults (K = 960, L = 5, one pass of
//     mini-batches after a class-block reconstructive initialisation; see
//     oddl.DefaultConfig), scored by W·a minus the weighted squared
//     residuals of each class's atoms;
//   - oddl-linear: the same trained model scored by W·a alone, the paper's
//     decision rule (not trained again: Run scores the oddl model twice);
//   - ksvd-linear: one approximate K-SVD dictionary of K/C atoms per class
//     (package ksvd), concatenated, with a ridge classifier
//     W = Y Aᵀ (A Aᵀ + λI)⁻¹ on the codes over the concatenation;
//   - online-rec-linear: the same with per-class online reconstructive
//     dictionaries (the ODDL algorithm with λ0 = 0);
//   - dksvd: Discriminative K-SVD, started from ksvd-linear.
//
// Every sample is made zero-mean with unit norm (dataset.Preprocess) once,
// before any method sees it; prediction codes a sample on D with Batch-OMP
// and sparsity L and takes the argmax of the class scores (for oddl, also
// the residuals of the sample coded on each class's atoms).
//
// The face protocol: for each random split (half of each person's images for
// training), every 32×32 face is cut into 4 horizontal and 3 vertical strips
// (dataset.FacePatches); each of the 7 patch classes gets its own dictionary
// and classifier (K = 228 = 6 atoms a person, L = 15), and a test face is
// given the person with the largest sum of the 7 classifiers' scores. The
// error is reported as mean ± sample standard deviation over the splits.
//
// With Table 1 comes a like-for-like table (AblationSteps): oddl-paper,
// then the changes that lead to the defaults added one at a time, each
// row trained twice — on the training set less a per-class sixth, for the
// error on that sixth (validation), and on the whole training set, for the
// test error — and a last row whose residual weight is chosen on the
// validation samples. In the face protocol, oddl's residual weight is
// chosen for each split on a per-person sixth of its training faces
// (faceRule); the test faces are never used to choose anything.
//
// The small-data table (RunSmall, oddl reproduce -table small) is not the
// paper's: few-shot sets drawn again for each seed — Extended Yale B with 5
// and 15 whole faces a person, USPS and MNIST with 50 digits a class — on
// which oddl's defaults fitted to the set's size (oddl.FitToData), the same
// with λ0 = 0, with settings chosen by 5-fold cross-validation on the
// training rows (oddl.CrossValidate), the paper's algorithm, and a ridge
// classifier on the pixels (PixelLinear) are tested, mean ± standard
// deviation over the seeds.
//
// Tables print as Markdown, the paper's values (Paper) beside ours. Report
// is written as results.json, with a plot of Table 3 and pictures of the
// MNIST dictionaries (oddl.AtomImage).
package experiments
