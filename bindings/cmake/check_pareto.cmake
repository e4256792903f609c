# Runs a program and checks that its "pareto" lines equal the C reference's.
#   -DCMD=<command with arguments separated by |> -DOUT=<output file> -DREFERENCE=<pareto_reference>
#   [-DREFERENCE_OUTPUT=<the reference's own output file>]
# Without REFERENCE_OUTPUT the command is the reference itself: its output is only saved.
string(REPLACE "|" ";" command "${CMD}")
execute_process(COMMAND ${command} OUTPUT_FILE "${OUT}" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(READ "${OUT}" out)
  message(FATAL_ERROR "the program failed (${rc}):\n${out}\n${err}")
endif()
if(REFERENCE_OUTPUT)
  execute_process(COMMAND "${REFERENCE}" compare "${REFERENCE_OUTPUT}" "${OUT}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the Pareto set differs from the C reference (output in ${OUT})")
  endif()
endif()
