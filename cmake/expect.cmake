# cmake -DCOMMAND=<list> -DEXPECT_EXIT=<status> [-DEXPECT_OUTPUT=<regex>] -P expect.cmake
# Runs COMMAND and passes only if it exits with EXPECT_EXIT and its output (stdout and stderr) matches
# EXPECT_OUTPUT. For negative tests: a run that must fail, in a precise way, with a precise message.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT "${status}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}, got '${status}'")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT "${EXPECT_OUTPUT}" STREQUAL "" AND NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match: ${EXPECT_OUTPUT}")
endif()
message("ok: exit status ${status} as expected")
