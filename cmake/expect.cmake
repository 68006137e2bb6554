# cmake -DCOMMAND=<list> -DEXPECT_EXIT=<status> [-DEXPECT_OUTPUT=<regex>] [-DEXPECT_ONCE=<regex>] -P expect.cmake
# Runs COMMAND and passes only if it exits with EXPECT_EXIT, its output (stdout and stderr) matches EXPECT_OUTPUT,
# and EXPECT_ONCE matches it exactly once. For negative tests: a run that must fail, in a precise way, with a
# precise message; and for output that must appear once, not once per PE.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT "${status}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}, got '${status}'")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT "${EXPECT_OUTPUT}" STREQUAL "" AND NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match: ${EXPECT_OUTPUT}")
endif()
if(DEFINED EXPECT_ONCE AND NOT "${EXPECT_ONCE}" STREQUAL "")
  string(REGEX MATCHALL "${EXPECT_ONCE}" _matches "${out}")
  list(LENGTH _matches _count)
  if(NOT _count EQUAL 1)
    message(FATAL_ERROR "output matches ${EXPECT_ONCE} ${_count} times, expected once")
  endif()
endif()
message("ok: exit status ${status} as expected")
