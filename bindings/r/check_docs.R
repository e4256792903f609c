# The R package's help pages: every exported function and object is documented (the SWIG layer's
# S4 plumbing is internal), every usage section matches the function's arguments (tools::codoc,
# as R CMD check does), and every example runs.
#   Rscript check_docs.R   (R_LIBS pointing at the installed package)
library(tools)
u <- undoc(package = "rescue")
undocumented <- c(u[["code objects"]], u[["data sets"]])
mismatched <- codoc(package = "rescue")
if (length(undocumented)) stop("undocumented:\n", paste(undocumented, collapse = "\n"))
if (length(mismatched))
  stop("usage sections that differ from the code:\n", paste(capture.output(print(mismatched)), collapse = "\n"))
db <- Rd_db("rescue")
for (page in names(db)) {
  topic <- sub("\\.Rd$", "", page)
  cat("example", topic, "\n")
  withCallingHandlers(example(topic, package = "rescue", character.only = TRUE, echo = FALSE, ask = FALSE),
                      warning = function(w) stop("example ", topic, " warned: ", conditionMessage(w)))
}
cat(length(db), "help pages checked\n")
