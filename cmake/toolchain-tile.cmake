# TILE-Gx (SHMEM_TARGET=tilegx) and TILEPro (tilepro), bare metal, newlib. The compilers are binutils 2.40 + GCC 12
# (the last GCC with the TILE back ends, for *-linux-gnu triplets only) + newlib's portable C library, from the
# cached prefixes that scripts/tile-toolchain.sh builds from Debian's source packages (run it first). Nothing built
# for these targets has run anywhere: no emulator or simulator of TILE exists here (docs/tile.md).
# The target picks the compiler; CMake's compiler checks re-read this file in projects of their own, which are
# given SHMEM_TARGET through CMAKE_TRY_COMPILE_PLATFORM_VARIABLES.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SHMEM_TARGET)
if(NOT DEFINED SHMEM_TARGET OR NOT SHMEM_TARGET MATCHES "^(tilegx|tilepro)$")
  message(FATAL_ERROR "toolchain-tile.cmake: set SHMEM_TARGET to tilegx or tilepro (it is '${SHMEM_TARGET}')")
endif()
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR ${SHMEM_TARGET})

if(NOT "$ENV{SHMEM_TOOLCHAIN_DIR}" STREQUAL "")
  set(_tile_root "$ENV{SHMEM_TOOLCHAIN_DIR}")
else()
  set(_tile_root "$ENV{HOME}/.cache/libshmem/toolchains")
endif()
set(SHMEM_TILE_PREFIX "${_tile_root}/${SHMEM_TARGET}-linux-gnu-gcc12")
if(NOT EXISTS "${SHMEM_TILE_PREFIX}/.complete")
  message(FATAL_ERROR "No complete ${SHMEM_TARGET}-linux-gnu toolchain in ${SHMEM_TILE_PREFIX}: "
                      "run 'bash scripts/tile-toolchain.sh ${SHMEM_TARGET}' once (about 10-20 minutes)")
endif()
set(_tile_bin "${SHMEM_TILE_PREFIX}/bin/${SHMEM_TARGET}-linux-gnu-")
set(CMAKE_C_COMPILER ${_tile_bin}gcc)
set(CMAKE_CXX_COMPILER ${_tile_bin}g++)
set(CMAKE_ASM_COMPILER ${_tile_bin}gcc)
set(CMAKE_AR ${_tile_bin}ar)
set(CMAKE_RANLIB ${_tile_bin}ranlib)
set(CMAKE_OBJCOPY ${_tile_bin}objcopy)
set(CMAKE_OBJDUMP ${_tile_bin}objdump)
set(SHMEM_SIZE_TOOL ${_tile_bin}size)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -fPIE: one image, linked at 0 as a position-independent executable, relocated by oshrun for each tile's
# partition (crt/tile/boot_block.h); GCC reaches local symbols pc-relatively (lnk) and ld leaves only
# R_*_RELATIVE relocations. The -D: newlib declares clock_gettime and CLOCK_MONOTONIC only for POSIX-timer
# targets; crt/tile gives them.
set(SHMEM_ARCH_FLAGS "-fPIE -D_POSIX_TIMERS=200112L -D_POSIX_MONOTONIC_CLOCK=200112L")
set(CMAKE_C_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
# A static PIE without an interpreter; one RWX segment is what a flat per-tile image is.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles -static -Wl,-pie,--no-dynamic-linker,-z,norelro,--no-warn-rwx-segments")

# No libstdc++ (the toolchain builds none): C++ without exceptions and RTTI, linked with the C driver; libshmem
# gives new/delete and the rest of the C++ runtime (crt/common/cxx.cpp), as on virt-rv64.
set(SHMEM_CXX_RUNTIME none)
set(CMAKE_CXX_LINK_EXECUTABLE
    "${CMAKE_C_COMPILER} <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(SHMEM_TARGET_NOTE "TILE-Gx images run on oshrun's own TILE-Gx simulator; TILEPro images are built and placed (oshrun --dry-run, --boot-dir: what a board's boot loader needs; docs/tile.md)")

set(CMAKE_FIND_ROOT_PATH "${SHMEM_TILE_PREFIX}/${SHMEM_TARGET}-linux-gnu")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

set(SHMEM_PORT_DIR tile)
# The startup code is pulled in by name (nothing in a program refers to it). newlib's libm is a library of the link,
# after the program and libshmem (a -lm among the link options would come before the program's objects).
set(SHMEM_PORT_LINK_OPTIONS -Wl,-u,_start)
set(SHMEM_PORT_LINK_LIBRARIES m)
