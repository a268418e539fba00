# write_halves(dir, name, X, cls) writes table X (its classes cls) as
# DIR/NAME-train.csv and DIR/NAME-test.csv: a "label" column first (the
# class as 0..q-1), the numeric columns as given; halved, each class
# apart, by seed 1 (a class of an odd count trains on the smaller half).
# Sourced by caret_tables.R and ddalpha_tables.R.
write_halves <- function(dir, name, X, cls) {
  y <- as.integer(factor(cls)) - 1
  X <- as.data.frame(lapply(X, function(c) as.numeric(as.character(c))))
  set.seed(1)
  train <- sort(unlist(lapply(split(seq_along(y), y), function(i) i[sample.int(length(i), floor(length(i) / 2))])))
  test <- setdiff(seq_along(y), train)
  for (part in c("train", "test")) {
    idx <- if (part == "train") train else test
    out <- cbind(label = y[idx], X[idx, , drop = FALSE])
    write.csv(out, file.path(dir, sprintf("%s-%s.csv", name, part)), row.names = FALSE, quote = FALSE)
  }
}
