#!/usr/bin/Rscript
# Writes twenty-four more tables as CSV training and test files in the
# directory given, in the form of caret_tables.R (a "label" column first,
# the class as 0..q-1, then the numeric columns; each table halved, each
# class apart, by seed 1). Twenty-two are two-class benchmark tables that
# R's ddalpha package collects from the UCI repository and elsewhere (the
# first column of its files' names; a name "a_XvsY" is the pair of classes
# X and Y of table a), two are of R's dslabs package:
#
#   baby bank biomed blood bupa cloud cricket ecoli gemsen groessen
#   haberman heart liver irish kidney retinol socmob tae tennis tips
#   vertebral veteran       (ddalpha)
#   tissue      dslabs tissue_gene_expression: 189 samples, 500 genes,
#               7 tissues
#   olive       dslabs olive: 572 olive oils, 8 fatty acids, 9 areas
#
# Debian: apt-get install r-base-core r-cran-ddalpha r-cran-dslabs.
# usage: bench/peers/ddalpha_tables.R DIR
#        bench/peers/sklearn_tables.py DIR --pairs baby bank ...
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: ddalpha_tables.R DIR")
dir.create(args[1], showWarnings = FALSE, recursive = TRUE)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "halves.R"))
dd <- system.file("data", package = "ddalpha")
tables <- c(baby = "baby", bank = "banknoten", biomed = "biomed",
  blood = "bloodtransfusion", bupa = "bupa", cloud = "cloud",
  cricket = "cricket_CvsP", ecoli = "ecoli_cpvsim", gemsen = "gemsen_MvsF",
  groessen = "groessen_MvsF", haberman = "haberman", heart = "heart",
  liver = "indian_liver_patient_1vs2", irish = "irish_ed_MvsF",
  kidney = "kidney", retinol = "plasma_retinol_MvsF", socmob = "socmob_IvsNI",
  tae = "tae", tennis = "tennis_MvsF", tips = "tips_MvsF",
  vertebral = "vertebral_column", veteran = "veteran_lung_cancer")
for (name in names(tables)) {
  d <- read.table(gzfile(file.path(dd, paste0(tables[[name]], ".txt.gz"))), header = TRUE)
  d <- d[complete.cases(d), ]
  write_halves(args[1], name, d[, -ncol(d), drop = FALSE], d[, ncol(d)])
}
suppressMessages(library(dslabs))
data(tissue_gene_expression)
write_halves(args[1], "tissue", as.data.frame(tissue_gene_expression$x), tissue_gene_expression$y)
data(olive)
write_halves(args[1], "olive", olive[, 3:10], olive$area)
