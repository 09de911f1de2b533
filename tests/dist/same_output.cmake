# Runs FIRST and SECOND (commands as lists) and fails unless both succeed and print the same
# standard output: two implementations of one definition that must agree in every character.
foreach(which FIRST SECOND)
  execute_process(COMMAND ${${which}} RESULT_VARIABLE status OUTPUT_VARIABLE out_${which}
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${${which}} failed (${status}):\n${out_${which}}${err}")
  endif()
endforeach()
message("${out_FIRST}")
if(NOT out_FIRST STREQUAL out_SECOND)
  message(FATAL_ERROR "the outputs differ:\n${out_FIRST}versus\n${out_SECOND}")
endif()
