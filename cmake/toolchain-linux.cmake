# Linux on the host's own CPU (x86-64 here; aarch64 with SHMEM_LINUX_CROSS=aarch64-linux-gnu, e.g. a Parallella's
# or any ARM host): PEs are processes that oshrun forks, the C library is the host's (glibc), the compilers are the
# host's own (cc/c++) unless the project was given others. Symmetric memory: port/linux/shmem_port.hpp.
if(DEFINED ENV{SHMEM_LINUX_CROSS} AND NOT "$ENV{SHMEM_LINUX_CROSS}" STREQUAL "")
  set(SHMEM_LINUX_CROSS "$ENV{SHMEM_LINUX_CROSS}")
endif()
if(SHMEM_LINUX_CROSS)
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SHMEM_LINUX_CROSS)
  # A cross build for another Linux (checked in CI: it must link; its tests run under qemu-user where it is).
  set(CMAKE_SYSTEM_NAME Linux)
  string(REGEX REPLACE "-.*" "" CMAKE_SYSTEM_PROCESSOR "${SHMEM_LINUX_CROSS}")
  set(CMAKE_C_COMPILER ${SHMEM_LINUX_CROSS}-gcc)
  set(CMAKE_CXX_COMPILER ${SHMEM_LINUX_CROSS}-g++)
  set(CMAKE_ASM_COMPILER ${SHMEM_LINUX_CROSS}-gcc)
  set(CMAKE_FIND_ROOT_PATH /usr/${SHMEM_LINUX_CROSS})
  set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
else()
  find_program(_linux_cc NAMES cc gcc REQUIRED)
  find_program(_linux_cxx NAMES c++ g++ REQUIRED)
  set(CMAKE_C_COMPILER "${_linux_cc}")
  set(CMAKE_CXX_COMPILER "${_linux_cxx}")
endif()

# The host's defaults (a position-independent executable, dynamically linked against glibc) are kept.
set(SHMEM_ARCH_FLAGS "")
set(CMAKE_EXE_LINKER_FLAGS_INIT "")
set(SHMEM_CXX_RUNTIME libstdc++)
set(SHMEM_TARGET_NOTE "")

set(SHMEM_PORT_DIR linux)
# The start-up code is pulled in by name (nothing in a program refers to it).
set(SHMEM_PORT_LINK_OPTIONS -Wl,-u,shmem_linux_preinit)
# glibc's libm, after the program and libshmem.
set(SHMEM_PORT_LINK_LIBRARIES m)
set(SHMEM_LINK_LANGUAGE_C OFF)
