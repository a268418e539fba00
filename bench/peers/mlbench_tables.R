#!/usr/bin/Rscript
# Writes seven tables of R's mlbench package (Debian: apt-get install
# r-base-core r-cran-mlbench) as CSV training and test files in the
# directory given, a "label" column first (the class as 0..q-1), the
# values as given:
#
#   letter     LetterRecognition: 20 000 rows of 16 statistics of a
#              letter's pixels, 26 classes; the first 16 000 train
#   satellite  Satellite: 6 435 rows of 36 pixel values, 6 soil classes;
#              69 % of each class trains (seed 1)
#   shuttle    Shuttle: 58 000 rows of 9 sensor values, 7 classes; the
#              first 43 500 train
#   dna        DNA: 3 186 rows of 180 binary indicators, 3 classes; the
#              first 2 000 train
#   vehicle    Vehicle: 846 rows of 18 silhouette features, 4 classes;
#              half of each class trains (seed 1)
#   vowel      Vowel: 990 rows of 9 speech features (the speaker column
#              left out), 11 classes; the 528 rows of the first eight
#              speakers train
#   sonar      Sonar: 208 rows of 60 energies, 2 classes; half of each
#              class trains (seed 1)
#
# usage: bench/peers/mlbench_tables.R DIR
#        bench/peers/sklearn_tables.py DIR --pairs letter satellite ...
#        bin/oddl train -data DIR/letter-train.csv,DIR/letter-test.csv
suppressMessages(library(mlbench))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: mlbench_tables.R DIR")
dir.create(args[1], showWarnings = FALSE, recursive = TRUE)
write_pair <- function(name, d, lab, train, drop = character(0)) {
  y <- as.integer(factor(d[[lab]])) - 1
  X <- d[, setdiff(names(d), c(lab, drop)), drop = FALSE]
  X <- as.data.frame(lapply(X, function(c) as.numeric(as.character(c))))
  for (part in c("train", "test")) {
    idx <- if (part == "train") train else setdiff(seq_len(nrow(d)), train)
    out <- cbind(label = y[idx], X[idx, , drop = FALSE])
    write.csv(out, file.path(args[1], sprintf("%s-%s.csv", name, part)), row.names = FALSE, quote = FALSE)
  }
}
stratified <- function(y, share, seed) {
  set.seed(seed)
  sort(unlist(lapply(split(seq_along(y), y), function(i) i[sample.int(length(i), floor(length(i) * share))])))
}
data(LetterRecognition); write_pair("letter", LetterRecognition, "lettr", 1:16000)
data(Satellite); write_pair("satellite", Satellite, "classes", stratified(Satellite$classes, 0.69, 1))
data(Shuttle); write_pair("shuttle", Shuttle, "Class", 1:43500)
data(DNA); write_pair("dna", DNA, "Class", 1:2000)
data(Vehicle); write_pair("vehicle", Vehicle, "Class", stratified(Vehicle$Class, 0.5, 1))
data(Vowel); write_pair("vowel", Vowel, "Class", 1:528, drop = "V1")
data(Sonar); write_pair("sonar", Sonar, "Class", stratified(Sonar$Class, 0.5, 1))
