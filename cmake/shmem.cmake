# Helpers for programs that use libshmem.
#
#   add_shmem_executable(name SOURCES a.c b.cpp ...)
#       one program image for the selected target, linked with libshmem, its startup code and linker script.
#
#   add_shmem_test(name SOURCES ... [PES 1 2 3 ...] [TIMEOUT s] [ARGS ...]
#                  [EXPECT_EXIT code] [EXPECT_OUTPUT regex] [PROGRAM target])
#       builds the program (or reuses PROGRAM) and adds one ctest test per PE count, name/npN, that runs it
#       through oshrun. By default a test passes when the run exits 0; EXPECT_EXIT/EXPECT_OUTPUT make it pass
#       only when the run exits with that status and prints output matching the regex.

set(SHMEM_DEFAULT_PES 1 2 3 4 8 16 CACHE STRING "PE counts every test runs at")
set(SHMEM_API_PES 1 2 3 4 5 7 8 12 16 CACHE STRING "PE counts the tests of the 1.5 API families run at")

function(add_shmem_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE shmem)
  # The C driver links: there is no libstdc++ for this target, and the library needs none.
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" LINKER_LANGUAGE C)
  target_link_options(${name} PRIVATE "-Wl,-Map=$<TARGET_FILE:${name}>.map")
endfunction()

function(add_shmem_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;EXPECT_EXIT;EXPECT_OUTPUT;PROGRAM" "SOURCES;PES;ARGS" ${ARGN})
  if(NOT ARG_PES)
    set(ARG_PES ${SHMEM_DEFAULT_PES})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  if(ARG_PROGRAM)
    set(program ${ARG_PROGRAM})
  else()
    set(program ${name})
    add_shmem_executable(${name} SOURCES ${ARG_SOURCES})
  endif()
  # ctest's own limit is a backstop above oshrun's, which kills the emulator and says so.
  math(EXPR ctest_timeout "${ARG_TIMEOUT} + 30")
  foreach(np IN LISTS ARG_PES)
    set(cmd "${SHMEM_OSHRUN}" --timeout ${ARG_TIMEOUT} -np ${np} $<TARGET_FILE:${program}> ${ARG_ARGS})
    if(DEFINED ARG_EXPECT_EXIT OR DEFINED ARG_EXPECT_OUTPUT)
      if(NOT DEFINED ARG_EXPECT_EXIT)
        set(ARG_EXPECT_EXIT 0)
      endif()
      add_test(NAME ${name}/np${np}
        COMMAND ${CMAKE_COMMAND} "-DEXPECT_EXIT=${ARG_EXPECT_EXIT}" "-DEXPECT_OUTPUT=${ARG_EXPECT_OUTPUT}"
                "-DCOMMAND=${cmd}" -P "${PROJECT_SOURCE_DIR}/cmake/expect.cmake")
    else()
      add_test(NAME ${name}/np${np} COMMAND ${cmd})
    endif()
    set_tests_properties(${name}/np${np} PROPERTIES TIMEOUT ${ctest_timeout} LABELS "target;np${np}")
  endforeach()
endfunction()
