# rescue_r_packages(<var> <package>...): sets <var> to TRUE when Rscript (RESCUE_RSCRIPT) is
# found and loads every named R package, else FALSE.
function(rescue_r_packages var)
  find_program(RESCUE_RSCRIPT Rscript)
  set(found FALSE)
  if(RESCUE_RSCRIPT)
    list(JOIN ARGN "', '" names)
    execute_process(COMMAND ${RESCUE_RSCRIPT} -e
                    "quit(status = !all(sapply(c('${names}'), requireNamespace, quietly = TRUE)))"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(found TRUE)
    endif()
  endif()
  set(${var} ${found} PARENT_SCOPE)
endfunction()
