# Helpers for programs that use libshmem.
#
#   add_shmem_executable(name SOURCES a.c b.cpp ... [DRAM_CODE])
#       one program image for the selected target, linked with libshmem, its startup code and linker script.
#       DRAM_CODE: the program's code is too big for a core's local memory on Epiphany and runs from external
#       DRAM there (linker/epiphany/shmem-dram-code.ld); no effect on other targets.
#
#   add_shmem_test(name SOURCES ... [PES 1 2 3 ...] [TIMEOUT s] [ARGS ...] [OSHRUN_ARGS ...] [DRAM_CODE]
#                  [EXPECT_EXIT code] [EXPECT_OUTPUT regex] [EXPECT_ONCE regex] [PROGRAM target] [LABELS ...])
#       builds the program (or reuses PROGRAM) and adds one ctest test per PE count, name/npN, that runs it
#       through oshrun (with OSHRUN_ARGS before -np, e.g. -x NAME=VALUE), with a time limit of TIMEOUT (default
#       60 s) x SHMEM_TIMEOUT_FACTOR. By default a test passes when the run exits 0; EXPECT_EXIT/EXPECT_OUTPUT
#       make it pass only when the run exits with that status and prints output matching the regex;
#       EXPECT_ONCE, only when the output matches that regex exactly once.
#       LABELS, and SHMEM_TEST_LABELS where the call is (a family's directory sets it once): ctest labels of the
#       runs besides "target" and npN, by which a preset chooses its tests (docs/testing.md). For each label L the
#       target tests_L builds the programs of its tests and oshrun, so that a preset builds only what it runs.
#
#   shmem_label_targets()   after every test is defined: makes the tests_L targets.

set(SHMEM_DEFAULT_PES 1 2 3 4 8 16 CACHE STRING "PE counts every test runs at")
set(SHMEM_API_PES 1 2 3 4 5 7 8 12 16 CACHE STRING "PE counts the tests of the 1.5 API families run at")

# What every program may assume about the target, as compile definitions: tests, examples and benchmarks choose
# their problem sizes by them (and the tests' CMake files their arguments by SHMEM_SMALL_SIZES).
#   SHMEM_TARGET_MAX_PES   the most PEs a run can have (a chip's cores, the emulator's harts)
#   SHMEM_SMALL_SIZES      1: the small problem sizes, for a PE whose code, static data, symmetric heap and stack
#                          share one small bank (Epiphany: 32 KB per core, linker/epiphany/sections.ld). The
#                          target's facts give the default; turned on for another target, it runs the same sizes.
option(SHMEM_SMALL_SIZES "Tests, examples and benchmarks use their small problem sizes (32 KB per PE)" ${SHMEM_SMALL_SIZES_DEFAULT})

# The tests' time limits (TIMEOUT below) are set for virt-rv64 under QEMU; the target's facts give the factor that
# fits what runs it (SHMEM_TIMEOUT_FACTOR_DEFAULT: Epiphany 2 for oshrun's own simulator; set 1 for a board, 10 for
# Adapteva's esim, one process per core and much slower).
set(SHMEM_TIMEOUT_FACTOR ${SHMEM_TIMEOUT_FACTOR_DEFAULT} CACHE STRING "Multiplier of every test's time limit")

function(add_shmem_executable name)
  cmake_parse_arguments(ARG "DRAM_CODE" "LIBRARY" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DRAM_CODE)
    set_target_properties(${name} PROPERTIES SHMEM_DRAM_CODE ON)
  endif()
  # LIBRARY: another build of libshmem's sources (a test's deliberately broken one); libshmem by default.
  if(NOT ARG_LIBRARY)
    set(ARG_LIBRARY libshmem::shmem)
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARY})
  target_compile_definitions(${name} PRIVATE SHMEM_TARGET_MAX_PES=${SHMEM_MAX_PES}
                             SHMEM_SMALL_SIZES=$<BOOL:${SHMEM_SMALL_SIZES}>)
  # The C driver links on the bare-metal targets: there is no libstdc++ there, and the library needs none. On
  # linux (SHMEM_LINK_LANGUAGE_C OFF) a C++ program links with the C++ driver and the host's libstdc++.
  set_target_properties(${name} PROPERTIES SUFFIX ".elf")
  if(NOT DEFINED SHMEM_LINK_LANGUAGE_C OR SHMEM_LINK_LANGUAGE_C)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  endif()
  target_link_options(${name} PRIVATE "-Wl,-Map=$<TARGET_FILE:${name}>.map")
endfunction()

function(add_shmem_test name)
  cmake_parse_arguments(ARG "DRAM_CODE" "TIMEOUT;EXPECT_EXIT;EXPECT_OUTPUT;EXPECT_ONCE;PROGRAM"
                        "SOURCES;PES;ARGS;OSHRUN_ARGS;LABELS" ${ARGN})
  set(labels ${ARG_LABELS} ${SHMEM_TEST_LABELS})
  if(NOT ARG_PES)
    set(ARG_PES ${SHMEM_DEFAULT_PES})
  endif()
  # A whole chip (the facts' SHMEM_CHIP_SCALE_PES) for the tests that scale.
  if("chip_scale" IN_LIST labels AND SHMEM_CHIP_SCALE_PES AND NOT SHMEM_CHIP_SCALE_PES IN_LIST ARG_PES)
    list(APPEND ARG_PES ${SHMEM_CHIP_SCALE_PES})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  math(EXPR ARG_TIMEOUT "${ARG_TIMEOUT} * ${SHMEM_TIMEOUT_FACTOR}")
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
  foreach(label IN LISTS labels)
    set_property(GLOBAL APPEND PROPERTY SHMEM_TEST_LABEL_NAMES ${label})
    set_property(GLOBAL APPEND PROPERTY SHMEM_TEST_LABEL_PROGRAMS_${label} ${program})
  endforeach()
  # A target whose programs nothing here can run (no capability "run" in its facts: TILE) builds the program and
  # checks it with one dry run at the largest PE count it may have: oshrun accepts the image, places it and writes
  # every tile's boot block. The test's assertions are not exercised; the summary says so.
  if(NOT "run" IN_LIST SHMEM_CAPABILITIES)
    set(np_max 0)
    foreach(np IN LISTS ARG_PES)
      if(np GREATER np_max AND NOT np GREATER SHMEM_MAX_PES)
        set(np_max ${np})
      endif()
    endforeach()
    if(np_max GREATER 0 AND NOT TEST ${name}/dry-run)
      add_test(NAME ${name}/dry-run COMMAND "${SHMEM_OSHRUN}" --target ${SHMEM_TARGET} --dry-run -np ${np_max}
               $<TARGET_FILE:${program}> ${ARG_ARGS})
      set_tests_properties(${name}/dry-run PROPERTIES TIMEOUT 60 LABELS "dry-run")
      set_property(GLOBAL APPEND PROPERTY SHMEM_NOT_RUN ${name})
    endif()
    return()
  endif()
  # ctest's own limit is a backstop above oshrun's, which kills the emulator and says so.
  math(EXPR ctest_timeout "${ARG_TIMEOUT} + 30")
  foreach(np IN LISTS ARG_PES)
    if(np GREATER SHMEM_MAX_PES)
      message(STATUS "${name}: no run at ${np} PEs: ${SHMEM_TARGET} has ${SHMEM_MAX_PES}")
      continue()
    endif()
    set(cmd "${SHMEM_OSHRUN}" --target ${SHMEM_TARGET} --timeout ${ARG_TIMEOUT} ${ARG_OSHRUN_ARGS} -np ${np}
            $<TARGET_FILE:${program}> ${ARG_ARGS})
    if(DEFINED ARG_EXPECT_EXIT OR DEFINED ARG_EXPECT_OUTPUT OR DEFINED ARG_EXPECT_ONCE)
      if(NOT DEFINED ARG_EXPECT_EXIT)
        set(ARG_EXPECT_EXIT 0)
      endif()
      add_test(NAME ${name}/np${np}
        COMMAND ${CMAKE_COMMAND} "-DEXPECT_EXIT=${ARG_EXPECT_EXIT}" "-DEXPECT_OUTPUT=${ARG_EXPECT_OUTPUT}"
                "-DEXPECT_ONCE=${ARG_EXPECT_ONCE}" "-DCOMMAND=${cmd}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/expect.cmake")
    else()
      add_test(NAME ${name}/np${np} COMMAND ${cmd})
    endif()
    set(test_labels target np${np} ${labels})
    # COST: ctest starts the runs of the most PEs first (with no timings of an earlier run, in a new tree), so
    # that a long run does not start last and hold the build's end with the other cores idle.
    set_tests_properties(${name}/np${np} PROPERTIES TIMEOUT ${ctest_timeout} LABELS "${test_labels}" COST ${np})
  endforeach()
endfunction()

function(shmem_label_targets)
  get_property(names GLOBAL PROPERTY SHMEM_TEST_LABEL_NAMES)
  list(REMOVE_DUPLICATES names)
  foreach(label IN LISTS names)
    get_property(programs GLOBAL PROPERTY SHMEM_TEST_LABEL_PROGRAMS_${label})
    list(REMOVE_DUPLICATES programs)
    add_custom_target(tests_${label})
    add_dependencies(tests_${label} ${programs} libshmem_oshrun)
  endforeach()
endfunction()
