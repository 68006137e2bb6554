# The host side (the oshrun loader and the native unit tests) is built with the host compiler as a project of
# its own (host_loader/). Several target builds may share one host build: SHMEM_HOST_BINARY_DIR names it (the
# presets give every tree build/host), and each tree's build step brings it up to date, one tree at a time. The host
# project finds the Epiphany assembler its simulator's tests need by itself (host_loader/CMakeLists.txt), at each
# configure, so every tree passes the same arguments and none of them rebuilds what another built.
include(ExternalProject)

set(SHMEM_HOST_BINARY_DIR "${CMAKE_CURRENT_BINARY_DIR}/host" CACHE PATH
    "Build directory of the host tools (oshrun, the unit tests); target builds may share one")
# The host project's unit tests become tests of this build too unless another tree runs them (SHMEM_HOST_TESTS OFF:
# they are still built, for a tree that shares the host build with one that runs them).
option(SHMEM_HOST_TESTS "Run the host tools' unit tests (loader, simulator, port logic) in this build's ctest" ON)
# A tree that runs the unit tests builds the whole host project; the others build oshrun alone (the arguments are
# the same either way, so that a shared host build is never configured back and forth).
# ($(MAKE) under a Makefile generator: the host build then shares the make job server, and -j, with this one.)
set(_host_build "")
if(NOT (SHMEM_BUILD_TESTS AND SHMEM_HOST_TESTS))
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(_host_build BUILD_COMMAND "$(MAKE)" oshrun)
  else()
    set(_host_build BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target oshrun)
  endif()
endif()
ExternalProject_Add(libshmem_oshrun
  SOURCE_DIR "${PROJECT_SOURCE_DIR}/host_loader"
  BINARY_DIR "${SHMEM_HOST_BINARY_DIR}"
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHMEM_VERSION=${PROJECT_VERSION} -DOSHRUN_TESTS=${SHMEM_BUILD_TESTS}
  ${_host_build}
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  TEST_COMMAND "")
set(SHMEM_OSHRUN "${SHMEM_HOST_BINARY_DIR}/oshrun" CACHE INTERNAL "")

# The host project's tests (GoogleTest, discovered there) become tests of this build.
if(SHMEM_BUILD_TESTS AND SHMEM_HOST_TESTS)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/host_tests.cmake"
  "if(EXISTS \"${SHMEM_HOST_BINARY_DIR}/CTestTestfile.cmake\")\n"
  "  include(\"${SHMEM_HOST_BINARY_DIR}/CTestTestfile.cmake\")\n"
  "endif()\n")
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY TEST_INCLUDE_FILES "${CMAKE_CURRENT_BINARY_DIR}/host_tests.cmake")
endif()
