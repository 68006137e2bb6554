# Epiphany-III / -IV (Parallella), bare metal, newlib. The compilers are epiphany-elf binutils 2.40 + GCC 12 +
# newlib 3.3 from the cached prefix that scripts/epiphany-toolchain.sh builds from Debian's source packages
# (run it first; the prefix rule below is the one its --print-prefix prints).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR epiphany)

if(NOT "$ENV{SHMEM_TOOLCHAIN_DIR}" STREQUAL "")
  set(_epiphany_root "$ENV{SHMEM_TOOLCHAIN_DIR}")
else()
  set(_epiphany_root "$ENV{HOME}/.cache/libshmem/toolchains")
endif()
set(SHMEM_EPIPHANY_PREFIX "${_epiphany_root}/epiphany-elf-gcc12")
if(NOT EXISTS "${SHMEM_EPIPHANY_PREFIX}/.complete")
  message(FATAL_ERROR "No complete epiphany-elf toolchain in ${SHMEM_EPIPHANY_PREFIX}: "
                      "run 'bash scripts/epiphany-toolchain.sh' once (about 15-30 minutes)")
endif()
set(_epiphany_bin "${SHMEM_EPIPHANY_PREFIX}/bin/epiphany-elf-")
set(CMAKE_C_COMPILER ${_epiphany_bin}gcc)
set(CMAKE_CXX_COMPILER ${_epiphany_bin}g++)
set(CMAKE_ASM_COMPILER ${_epiphany_bin}gcc)
set(CMAKE_AR ${_epiphany_bin}ar)
set(CMAKE_RANLIB ${_epiphany_bin}ranlib)
set(CMAKE_OBJCOPY ${_epiphany_bin}objcopy)
set(CMAKE_OBJDUMP ${_epiphany_bin}objdump)
set(SHMEM_SIZE_TOOL ${_epiphany_bin}size)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# No -mcpu/-march: epiphany-elf GCC 12 has a single ISA (E16 and E64 cores are the same). Its defaults are kept:
# -mfp-mode=caller, -mstack-offset=8, no -mlong-calls.
# 32 KB per core for code and data: one section per function and object, so --gc-sections drops the unused; -Os
# unless the build type or the command line says otherwise (later flags win), also because GCC 12's Epiphany back
# end stops with an internal compiler error on some C++ at -O0 (tests/test_cxx.cpp: "unrecognizable insn").
# The -D: newlib declares clock_gettime and CLOCK_MONOTONIC only for POSIX-timer targets; crt/epiphany gives them.
set(SHMEM_ARCH_FLAGS "-Os -ffunction-sections -fdata-sections -D_POSIX_TIMERS=200112L -D_POSIX_MONOTONIC_CLOCK=200112L")
set(CMAKE_C_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "")
# A core-local image is one RWX segment by design: ld 2.40 would warn about it on every link.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections -Wl,--no-warn-rwx-segments")
# -Os in every optimized build type: CMake's GNU defaults (-O2, -O3) would come after any -Os given above.
foreach(_lang C CXX ASM)
  set(CMAKE_${_lang}_FLAGS_RELEASE "-Os -DNDEBUG" CACHE STRING "Flags for Release builds (epiphany: -Os)")
  set(CMAKE_${_lang}_FLAGS_RELWITHDEBINFO "-Os -g -DNDEBUG" CACHE STRING "Flags for RelWithDebInfo builds (epiphany: -Os)")
  set(CMAKE_${_lang}_FLAGS_MINSIZEREL "-Os -DNDEBUG" CACHE STRING "Flags for MinSizeRel builds")
endforeach()

# newlib and libstdc++ are there, but a core has 32 KB for code, data, symmetric heap and stack (README: Epiphany).
set(SHMEM_CXX_RUNTIME libstdc++)
set(SHMEM_TARGET_NOTE "Epiphany cores have 32 KB each: no malloc heap, no environment (getenv gives NULL), programs too big for 32 KB need --dram-code")

set(CMAKE_FIND_ROOT_PATH "${SHMEM_EPIPHANY_PREFIX}/epiphany-elf")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

set(SHMEM_PORT_DIR epiphany)
# The vector table (and with it the startup code) is pulled in by name; newlib's crt0 and libgloss's system
# calls are replaced by crt/epiphany.
set(SHMEM_PORT_LINK_OPTIONS -nostartfiles -Wl,-u,_shmem_ivt)
# Options for the library only: its code is all in one region, local memory or DRAM (shmem-dram-code.ld), within
# reach of a bl (+-16 MB), so -mshort-calls calls with one bl instead of mov, movt and jalr. The exception is the
# copy loop, which stays in local memory in both layouts (.text.local): it is declared long_call
# (port/epiphany/shmem_port.hpp). (-msmall16, which would load the library's data addresses in one mov, cannot go
# with it: GCC then loads function addresses in 16 bits too, and a program whose code is in DRAM breaks.)
set(SHMEM_PORT_LIBRARY_OPTIONS -mshort-calls -fno-move-loop-invariants)
