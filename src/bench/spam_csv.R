# Writes the spam data of R's kernlab package (4,601 e-mails, 57 numeric
# features) to the CSV file named by the first argument, the label as a 0/1
# column "spam" (1: spam).
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: Rscript spam_csv.R OUT.csv")
data("spam", package = "kernlab", envir = environment())
spam$spam <- as.integer(spam$type == "spam")
spam$type <- NULL
write.csv(spam, args[1], row.names = FALSE, quote = FALSE)
