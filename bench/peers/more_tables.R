#!/usr/bin/Rscript
# Writes thirteen tables of R's modeldata, MASS and kernlab packages
# (Debian: apt-get install r-base-core r-cran-modeldata r-cran-mass
# r-cran-kernlab) as CSV training and test files in the directory given, a
# "label" column first (the class as 0..q-1), the numeric columns as given
# (the other columns left out: the tables' factors, and the cells' case
# and the crabs' index):
#
#   cells       cells: 2 019 rows of 56 measurements of segmented cells,
#               2 classes; the table's own Train and Test rows
#   bivariate   bivariate_train / bivariate_test: 1 009 and 710 rows of 2
#               values, 2 classes
#   hpc         hpc_data: 4 331 rows of 5 values of a computing job, 4
#               classes of run time
#   stackoverflow  stackoverflow: 5 594 rows of 19 survey answers, 2
#               classes (remote or not)
#   ad          ad_data: 333 rows of 129 protein levels, 2 classes
#   pdspeech    pd_speech: 252 rows of 751 speech measurements, 2 classes
#   twoclass    two_class_dat: 791 rows of 2 values, 2 classes
#   parabolic   parabolic: 500 rows of 2 values, 2 classes
#   oils        oils: 96 rows of 7 fatty-acid shares, 7 classes (two of
#               them of two and three rows)
#   synth       MASS synth.tr / synth.te: 250 and 1 000 rows of 2 values,
#               2 classes (Ripley's synthetic data)
#   crabs       MASS crabs: 200 rows of 5 measurements, 4 classes (species
#               and sex)
#   spam        kernlab spam: 4 601 e-mails, 57 word and character
#               frequencies and capital-run lengths, 2 classes
#   musk        kernlab musk: 476 molecules, 166 shape features, 2 classes
#
# Tables without a split of their own are halved, each class apart, by
# seed 1 (a class of an odd count trains on the smaller half).
#
# usage: bench/peers/more_tables.R DIR
#        bench/peers/sklearn_tables.py DIR --pairs cells bivariate ...
#        bin/oddl train -data DIR/cells-train.csv,DIR/cells-test.csv
suppressMessages({
  library(modeldata)
  library(MASS)
  library(kernlab)
})
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: more_tables.R DIR")
dir.create(args[1], showWarnings = FALSE, recursive = TRUE)
write_part <- function(name, part, y, X) {
  out <- cbind(label = y, X)
  write.csv(out, file.path(args[1], sprintf("%s-%s.csv", name, part)), row.names = FALSE, quote = FALSE)
}
numeric_columns <- function(d, lab, drop) {
  keep <- setdiff(names(d)[sapply(d, is.numeric)], c(lab, drop))
  d[, keep, drop = FALSE]
}
write_pair <- function(name, d, lab, train, drop = character(0)) {
  y <- as.integer(factor(d[[lab]])) - 1
  X <- numeric_columns(d, lab, drop)
  write_part(name, "train", y[train], X[train, , drop = FALSE])
  test <- setdiff(seq_len(nrow(d)), train)
  write_part(name, "test", y[test], X[test, , drop = FALSE])
}
write_split <- function(name, tr, te, lab) {
  lev <- levels(factor(tr[[lab]]))
  write_part(name, "train", as.integer(factor(tr[[lab]], levels = lev)) - 1, numeric_columns(tr, lab, character(0)))
  write_part(name, "test", as.integer(factor(te[[lab]], levels = lev)) - 1, numeric_columns(te, lab, character(0)))
}
halved <- function(y, seed = 1) {
  set.seed(seed)
  sort(unlist(lapply(split(seq_along(y), y), function(i) i[sample.int(length(i), floor(length(i) / 2))])))
}
write_pair("cells", cells, "class", which(cells$case == "Train"))
write_split("bivariate", bivariate_train, bivariate_test, "Class")
write_pair("hpc", hpc_data, "class", halved(hpc_data$class))
write_pair("stackoverflow", stackoverflow, "Remote", halved(stackoverflow$Remote))
write_pair("ad", ad_data, "Class", halved(ad_data$Class))
write_pair("pdspeech", pd_speech, "class", halved(pd_speech$class))
write_pair("twoclass", two_class_dat, "Class", halved(two_class_dat$Class))
write_pair("parabolic", parabolic, "class", halved(parabolic$class))
write_pair("oils", oils, "class", halved(oils$class))
synth.tr$yc <- factor(synth.tr$yc)
synth.te$yc <- factor(synth.te$yc)
write_split("synth", synth.tr, synth.te, "yc")
crabs$kind <- interaction(crabs$sp, crabs$sex)
write_pair("crabs", crabs, "kind", halved(crabs$kind), drop = "index")
data(spam)
write_pair("spam", spam, "type", halved(spam$type))
data(musk)
write_pair("musk", musk, "Class", halved(musk$Class))
