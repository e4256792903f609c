library(testthat)
library(rescue)
test_check("rescue")
