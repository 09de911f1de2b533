# Runs the command MPIEXEC followed by PROGRAM (both lists) and fails unless the job ends within
# LIMIT_S seconds with a non-zero status and its output matches CAUSE: a rank that died must end
# the job, not leave the others waiting for it in a collective, and the output must say which.
string(TIMESTAMP started "%s" UTC)
execute_process(COMMAND ${MPIEXEC} ${PROGRAM}
  TIMEOUT ${LIMIT_S} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP ended "%s" UTC)
math(EXPR elapsed_s "${ended} - ${started}")
message("${out}${err}")
if(NOT status MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the job did not end within ${LIMIT_S} s (${status}): the ranks hung")
endif()
if(status EQUAL 0)
  message(FATAL_ERROR "the job ended with status 0 after ${elapsed_s} s: the death went unnoticed")
endif()
message("the job ended with status ${status} after ${elapsed_s} s")
if(NOT "${out}${err}" MATCHES "${CAUSE}")
  message(FATAL_ERROR "the job's output does not match \"${CAUSE}\": the cause is not reported")
endif()
