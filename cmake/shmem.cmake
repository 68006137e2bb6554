# Helpers for programs that use libshmem.
#
#   add_shmem_executable(name SOURCES a.c b.cpp ... [DRAM_CODE])
#       one program image for the selected target, linked with libshmem, its startup code and linker script.
#       DRAM_CODE: the program's code is too big for a core's local memory on Epiphany and runs from external
#       DRAM there (linker/epiphany/shmem-dram-code.ld); no effect on other targets.
#
#   add_shmem_test(name SOURCES ... [PES 1 2 3 ...] [TIMEOUT s] [ARGS ...] [DRAM_CODE]
#                  [EXPECT_EXIT code] [EXPECT_OUTPUT regex] [PROGRAM target])
#       builds the program (or reuses PROGRAM) and adds one ctest test per PE count, name/npN, that runs it
#       through oshrun. By default a test passes when the run exits 0; EXPECT_EXIT/EXPECT_OUTPUT make it pass
#       only when the run exits with that status and prints output matching the regex.

set(SHMEM_DEFAULT_PES 1 2 3 4 8 16 CACHE STRING "PE counts every test runs at")
set(SHMEM_API_PES 1 2 3 4 5 7 8 12 16 CACHE STRING "PE counts the tests of the 1.5 API families run at")

# Programs whose static data (sized for virt-rv64's megabytes) does not fit in a 32 KB Epiphany core yet: they
# are not built for Epiphany, and configuring says so for each (README.md, "Epiphany: what runs").
set(SHMEM_EPIPHANY_UNFIT active_set amo_lock amo_signal amo_types collectives collectives_generic rma_types
    teams neg_oversized fft2d matvec cbir bench_putget bench_collectives bench_channels)

function(add_shmem_executable name)
  cmake_parse_arguments(ARG "DRAM_CODE" "" "SOURCES" ${ARGN})
  if(SHMEM_PORT STREQUAL "epiphany" AND name IN_LIST SHMEM_EPIPHANY_UNFIT)
    message(STATUS "${SHMEM_TARGET}: ${name} is not built: its static data does not fit in a core's 32 KB")
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DRAM_CODE)
    set_target_properties(${name} PROPERTIES SHMEM_DRAM_CODE ON)
  endif()
  target_link_libraries(${name} PRIVATE shmem)
  # The C driver links: there is no libstdc++ for this target, and the library needs none.
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" LINKER_LANGUAGE C)
  target_link_options(${name} PRIVATE "-Wl,-Map=$<TARGET_FILE:${name}>.map")
endfunction()

function(add_shmem_test name)
  cmake_parse_arguments(ARG "DRAM_CODE" "TIMEOUT;EXPECT_EXIT;EXPECT_OUTPUT;PROGRAM" "SOURCES;PES;ARGS" ${ARGN})
  if(NOT ARG_PES)
    set(ARG_PES ${SHMEM_DEFAULT_PES})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  if(SHMEM_PORT STREQUAL "epiphany" AND (name IN_LIST SHMEM_EPIPHANY_UNFIT OR ARG_PROGRAM IN_LIST SHMEM_EPIPHANY_UNFIT))
    message(STATUS "${SHMEM_TARGET}: no test ${name}: its program does not fit in a core's 32 KB")
    return()
  endif()
  if(ARG_PROGRAM)
    set(program ${ARG_PROGRAM})
  else()
    set(program ${name})
    if(ARG_DRAM_CODE)
      add_shmem_executable(${name} SOURCES ${ARG_SOURCES} DRAM_CODE)
    else()
      add_shmem_executable(${name} SOURCES ${ARG_SOURCES})
    endif()
  endif()
  # ctest's own limit is a backstop above oshrun's, which kills the emulator and says so.
  math(EXPR ctest_timeout "${ARG_TIMEOUT} + 30")
  foreach(np IN LISTS ARG_PES)
    if(np GREATER SHMEM_MAX_PES)
      message(STATUS "${name}: no run at ${np} PEs: ${SHMEM_TARGET} has ${SHMEM_MAX_PES}")
      continue()
    endif()
    set(cmd "${SHMEM_OSHRUN}" --target ${SHMEM_TARGET} --timeout ${ARG_TIMEOUT} -np ${np} $<TARGET_FILE:${program}> ${ARG_ARGS})
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
