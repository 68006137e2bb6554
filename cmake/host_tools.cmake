# The host side (the oshrun loader and the native unit tests) is built with the host compiler as a project of
# its own, and its tests join this build's ctest run.
include(ExternalProject)

set(SHMEM_HOST_BINARY_DIR "${CMAKE_CURRENT_BINARY_DIR}/host")
# An Epiphany build hands its assembler (beside epiphany-elf-gcc) to the simulator's tests (EPSIM_ASSEMBLER).
set(_host_args "")
if(SHMEM_PORT_DIR STREQUAL "epiphany")
  get_filename_component(_epiphany_bin "${CMAKE_C_COMPILER}" DIRECTORY)
  if(EXISTS "${_epiphany_bin}/epiphany-elf-as")
    list(APPEND _host_args "-DEPSIM_ASSEMBLER=${_epiphany_bin}/epiphany-elf-as")
  endif()
endif()
ExternalProject_Add(libshmem_oshrun
  SOURCE_DIR "${PROJECT_SOURCE_DIR}/host_loader"
  BINARY_DIR "${SHMEM_HOST_BINARY_DIR}"
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHMEM_VERSION=${PROJECT_VERSION} -DOSHRUN_TESTS=${SHMEM_BUILD_TESTS}
             ${_host_args}
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  TEST_COMMAND "")
set(SHMEM_OSHRUN "${SHMEM_HOST_BINARY_DIR}/oshrun" CACHE INTERNAL "")

# The host project's tests (GoogleTest, discovered there) become tests of this build.
if(SHMEM_BUILD_TESTS)
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/host_tests.cmake"
  "if(EXISTS \"${SHMEM_HOST_BINARY_DIR}/CTestTestfile.cmake\")\n"
  "  include(\"${SHMEM_HOST_BINARY_DIR}/CTestTestfile.cmake\")\n"
  "endif()\n")
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY TEST_INCLUDE_FILES "${CMAKE_CURRENT_BINARY_DIR}/host_tests.cmake")
endif()
