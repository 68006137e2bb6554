# libshmem's CMake package. In a project configured with one of the toolchain files installed beside this file,
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/libshmem/toolchain-<target>.cmake
# find_package(libshmem REQUIRED) gives
#   libshmem::shmem            the library for that target, with every compile and link option a program needs
#   add_shmem_executable(name SOURCES ... [DRAM_CODE])     a program image (name.elf) linked with it
#   add_shmem_test(name SOURCES ... [PES ...] ...)         the same, run by ctest through oshrun at several PE counts
#   SHMEM_OSHRUN, SHMEM_TARGET, SHMEM_MAX_PES
# The prefix may have moved since it was installed: every path is found from this file's directory.
get_filename_component(_libshmem_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

file(GLOB _libshmem_installed RELATIVE "${CMAKE_CURRENT_LIST_DIR}" "${CMAKE_CURRENT_LIST_DIR}/toolchain-*.cmake")
string(REGEX REPLACE "toolchain-([^;]*)\\.cmake" "\\1" _libshmem_installed "${_libshmem_installed}")
string(REPLACE ";" ", " _libshmem_installed "${_libshmem_installed}")

if(NOT SHMEM_TARGET)
  set(libshmem_FOUND FALSE)
  set(libshmem_NOT_FOUND_MESSAGE "libshmem is built for bare-metal targets; configure this project with the "
    "toolchain file of one: -DCMAKE_TOOLCHAIN_FILE=${CMAKE_CURRENT_LIST_DIR}/toolchain-<target>.cmake "
    "(installed here: ${_libshmem_installed})")
  string(REPLACE ";" "" libshmem_NOT_FOUND_MESSAGE "${libshmem_NOT_FOUND_MESSAGE}")
  return()
endif()
if(NOT EXISTS "${CMAKE_CURRENT_LIST_DIR}/libshmem-${SHMEM_TARGET}.cmake")
  set(libshmem_FOUND FALSE)
  set(libshmem_NOT_FOUND_MESSAGE "libshmem: target '${SHMEM_TARGET}' is not installed in ${_libshmem_prefix} "
    "(installed: ${_libshmem_installed})")
  string(REPLACE ";" "" libshmem_NOT_FOUND_MESSAGE "${libshmem_NOT_FOUND_MESSAGE}")
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/libshmem-${SHMEM_TARGET}.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/shmem.cmake")
