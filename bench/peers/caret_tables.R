#!/usr/bin/Rscript
# Writes thirteen more tables, of R's caret, rrcov, mlbench and MASS
# packages (Debian: apt-get install r-base-core r-cran-caret r-cran-rrcov
# r-cran-mlbench r-cran-mass), as CSV training and test files in the
# directory given,
# a "label" column first (the class as 0..q-1), the numeric columns as
# given, each table halved, each class apart, by seed 1 (a class of an odd
# count trains on the smaller half):
#
#   credit      caret GermanCredit: 1 000 loans, 61 values (the
#               categories as 0/1 columns), 2 classes
#   dhfr        caret dhfr: 325 molecules, 228 descriptors, 2 classes
#   mdrr        caret mdrr: 528 molecules, 342 descriptors, 2 classes
#   olitos      rrcov olitos: 120 olive oils, 25 measurements, 4 classes
#   diabetes3   rrcov diabetes: 145 patients, 5 measurements, 3 classes
#   hemophilia  rrcov hemophilia: 75 women, 2 measurements, 2 classes
#   salmon      rrcov salmon: 100 fish, 3 values, 2 origins
#   fish        rrcov fish: 158 fish (the row with a missing value left
#               out), 6 measurements, 7 species
#   wisconsin   mlbench BreastCancer: 683 biopsies (the rows with a
#               missing value left out), 9 grades, 2 classes
#   cox2        caret cox2: 462 molecules, 255 descriptors, 2 classes
#   cats        MASS cats: 144 cats, body and heart weight, 2 sexes
#   birthwt     MASS birthwt: 189 births, 8 values of the mother (the
#               birth weight itself left out), 2 classes (low or not)
#   painters    MASS painters: 54 painters, 4 scores, 8 schools
#
# usage: bench/peers/caret_tables.R DIR
#        bench/peers/sklearn_tables.py DIR --pairs credit dhfr ...
suppressMessages({
  library(caret)
  library(rrcov)
  library(mlbench)
  library(MASS)
})
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: caret_tables.R DIR")
dir.create(args[1], showWarnings = FALSE, recursive = TRUE)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "halves.R"))
data(GermanCredit)
write_halves(args[1], "credit", GermanCredit[, names(GermanCredit) != "Class"], GermanCredit$Class)
data(dhfr)
write_halves(args[1], "dhfr", dhfr[, -1], dhfr$Y)
data(mdrr)
write_halves(args[1], "mdrr", mdrrDescr, mdrrClass)
data(olitos)
write_halves(args[1], "olitos", olitos[, 1:25], olitos$grp)
data(diabetes)
write_halves(args[1], "diabetes3", diabetes[, 1:5], diabetes$group)
data(hemophilia)
write_halves(args[1], "hemophilia", hemophilia[, 1:2], hemophilia$gr)
data(salmon)
write_halves(args[1], "salmon", salmon[, 1:3], salmon$Origin)
data(fish)
fish <- fish[complete.cases(fish), ]
write_halves(args[1], "fish", fish[, 1:6], fish$Species)
data(BreastCancer)
bc <- BreastCancer[complete.cases(BreastCancer), ]
write_halves(args[1], "wisconsin", bc[, 2:10], bc$Class)
data(cox2)
write_halves(args[1], "cox2", cox2Descr, cox2Class)
write_halves(args[1], "cats", cats[, 2:3], cats$Sex)
write_halves(args[1], "birthwt", birthwt[, c("age", "lwt", "race", "smoke", "ptl", "ht", "ui", "ftv")], birthwt$low)
write_halves(args[1], "painters", painters[, 1:4], painters$School)
