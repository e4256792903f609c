# Runs a binding's example and checks that its "pareto" lines equal the C reference.
#   -DCMD=<command with arguments separated by |> -DOUT=<output file> -DREFERENCE=<pareto_reference>
string(REPLACE "|" ";" command "${CMD}")
execute_process(COMMAND ${command} OUTPUT_FILE "${OUT}" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(READ "${OUT}" out)
  message(FATAL_ERROR "the example failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND "${REFERENCE}" compare "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the example's Pareto set differs from the C reference (output in ${OUT})")
endif()
