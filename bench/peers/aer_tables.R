#!/usr/bin/Rscript
# Writes twenty-four tables of R's econometrics and social-science
# packages (AER, carData, HSAUR3, MASS) as CSV training and test files in
# the directory given, in the form of caret_tables.R: a "label" column
# first (the class as 0..q-1), then the values, each factor as 0/1 columns
# (one a level beyond the first); the rows with a missing value left out;
# each table halved, each class apart, by seed 1. The class, and what is
# left out because it gives the class away:
#
#   affairs     AER Affairs: any affair or none (601 people)
#   creditcard  AER CreditCard: card application accepted (expenditure
#               and share left out: only holders spend)
#   hmda        AER HMDA: mortgage denied (2 380)
#   swisslabor  AER SwissLabor: in the labour force (872 women)
#   doctor      AER DoctorVisits: any visit in two weeks (5 190)
#   recreation  AER RecreationDemand: owns a ski boat (659)
#   bankwages   AER BankWages: job category, 3 (474)
#   medicaid    AER Medicaid1986: enrolled (996)
#   health      AER HealthInsurance: insured (8 802)
#   mroz        carData Mroz: in the labour force (753 women)
#   beps        carData BEPS: vote, 3 parties (1 525)
#   chile       carData Chile: vote, 4 choices
#   cowles      carData Cowles: volunteers (1 421)
#   wells       carData Wells: switched wells (3 020)
#   arrests     carData Arrests: released with a summons (5 226)
#   titanic     carData TitanicSurvival: survived
#   womenlf     carData Womenlf: work, 3 (263 women)
#   slid        carData SLID: language, 3
#   salaries    carData Salaries: rank, 3 (397 professors)
#   davis       carData Davis: sex, from measured and reported size
#   skulls      HSAUR3 skulls: epoch, 5 (150 skulls)
#   chfls       HSAUR3 CHFLS: happiness, 4 (1 534)
#   aids        MASS Aids2: died (death date left out)
#   survey      MASS survey: sex, from hand spans, height, pulse …
#
# Debian: apt-get install r-base-core r-cran-aer r-cran-cardata
# r-cran-hsaur3 r-cran-mass.
# usage: bench/peers/aer_tables.R DIR
#        bench/peers/sklearn_tables.py DIR --pairs affairs creditcard ...
suppressMessages({
  library(AER)
  library(carData)
  library(HSAUR3)
  library(MASS)
})
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: aer_tables.R DIR")
dir.create(args[1], showWarnings = FALSE, recursive = TRUE)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])), "halves.R"))
# table(name, d, cls, drop) writes d's class column cls as the label and
# its other columns, but those in drop, as values.
table <- function(name, d, cls, drop = character()) {
  d <- d[, setdiff(names(d), drop), drop = FALSE]
  d <- d[complete.cases(d), , drop = FALSE]
  y <- d[[cls]]
  x <- d[, setdiff(names(d), cls), drop = FALSE]
  m <- model.matrix(~ ., data = x)[, -1, drop = FALSE]
  write_halves(args[1], name, as.data.frame(m), y)
}
data(Affairs); Affairs$any <- Affairs$affairs > 0
table("affairs", Affairs, "any", "affairs")
data(CreditCard); table("creditcard", CreditCard, "card", c("expenditure", "share"))
data(HMDA); table("hmda", HMDA, "deny")
data(SwissLabor); table("swisslabor", SwissLabor, "participation")
data(DoctorVisits); DoctorVisits$any <- DoctorVisits$visits > 0
table("doctor", DoctorVisits, "any", "visits")
data(RecreationDemand); table("recreation", RecreationDemand, "ski")
data(BankWages); table("bankwages", BankWages, "job")
data(Medicaid1986); table("medicaid", Medicaid1986, "enroll")
data(HealthInsurance); table("health", HealthInsurance, "insurance")
table("mroz", Mroz, "lfp")
table("beps", BEPS, "vote")
table("chile", Chile, "vote")
table("cowles", Cowles, "volunteer")
table("wells", Wells, "switch")
table("arrests", Arrests, "released")
table("titanic", TitanicSurvival, "survived")
table("womenlf", Womenlf, "partic")
table("slid", SLID, "language")
table("salaries", Salaries, "rank")
table("davis", Davis, "sex")
data(skulls, package = "HSAUR3"); table("skulls", skulls, "epoch")
data(CHFLS); table("chfls", CHFLS, "R_happy")
table("aids", Aids2, "status", "death")
table("survey", survey, "Sex")
