// Package ksvd implements the baselines that online discriminative dictionary
// learning is compared with: approximate K-SVD, per-class K-SVD dictionaries
// with a linear classifier ("ksvd-linear"), and Discriminative K-SVD
// ("dksvd", Zhang & Li 2010).
//
// # K-SVD
//
// Samples are the rows x_i of an N×n matrix X; the dictionary D holds K
// unit-norm atoms d_j as rows. K-SVD looks for
//
//	min_{D, A} ‖X − A·D‖²_F   subject to ‖a_i‖₀ ≤ L, ‖d_j‖ = 1,
//
// alternating two steps (Train):
//
//  1. Sparse coding: a_i for every sample by Batch-OMP (package omp) with
//     sparsity L; the codes stay sparse (at most L entries a sample).
//
//  2. Dictionary update, atom by atom in a random order. For atom j, let S
//     be the samples that use it, g their coefficients on it, and
//     E = X_S − A_S·D + g·d_jᵀ their residual without atom j. The exact
//     update is the leading singular pair of E; the approximate K-SVD of
//     Rubinstein, Zibulevsky & Elad takes one power-method step instead:
//
//     d_j ← Eᵀg / ‖Eᵀg‖,   g ← E·d_j.
//
//     Each step can only lower ‖X − A·D‖ for the current support, and later
//     atoms see the earlier atoms' new values (Gauss–Seidel).
//
// The residuals R = X − A·D are formed once after coding (L axpys a sample)
// and kept exact through the updates, so updating atom j costs a few passes
// over the |S| rows it touches and nothing else. An atom that no sample
// uses is replaced by the normalised sample with the largest residual (each
// sample at most once per iteration), and so is an atom whose |correlation|
// with another atom exceeds Config.MaxCoherence after an iteration. Atoms
// are never zero. The root-mean-square error sqrt(‖X − A·D‖²_F/(N·n)) of each
// iteration's codes is reported; it decreases from one iteration to the next
// up to the suboptimality of the greedy coder.
//
// # Linear classifiers
//
// Ridge fits W (K×q, one row per atom) to codes A and one-hot targets
// y_i ∈ {0, 1}^q:
//
//	W = (A Aᵀ + λI)⁻¹ A Yᵀ,
//
// and a sample is labelled by the largest entry of Wᵀa. PerClass trains one
// K-SVD dictionary per class on that class's samples and concatenates them;
// with W on the codes over the concatenation this is ksvd-linear.
//
// # Discriminative K-SVD
//
// D-KSVD learns D and W together by running K-SVD on stacked samples and
// atoms,
//
//	min ‖ [X, √γ·Y] − A·[D, √γ·W] ‖²_F   subject to ‖a_i‖₀ ≤ L,
//
// where each stacked atom [d_j, √γ·w_j] has unit norm. It starts from
// ksvd-linear's D and W (stacked, rows normalised). At the end the atoms are
// taken apart and d_j and w_j are both divided by ‖d_j‖: D gets unit-norm
// atoms, and since the code of a sample on D scales by the same factors the
// scores Wᵀa are unchanged. Prediction codes x on D alone (the labels are
// unknown) and takes the largest entry of Wᵀa.
//
// Classifier wraps both methods behind Fit, Scores and Predict.
package ksvd
