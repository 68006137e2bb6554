# QEMU virt, RISC-V 64 (rv64gc, lp64d), bare metal, picolibc from Debian's picolibc-riscv64-unknown-elf.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_CXX_COMPILER riscv64-unknown-elf-g++)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_AR riscv64-unknown-elf-ar)
set(CMAKE_RANLIB riscv64-unknown-elf-ranlib)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# medany: every address is formed pc-relative, which is what lets one image run at any partition base.
# The -D: the POSIX clocks and sleeps the startup code gives (crt/virt-rv64/libc.cpp: clock_gettime, clock_getres,
# nanosleep; CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID), which picolibc's <time.h> declares
# only where these options are.
set(SHMEM_ARCH_FLAGS "-march=rv64gc -mabi=lp64d -mcmodel=medany --specs=picolibc.specs -D_POSIX_TIMERS=200112L -D_POSIX_MONOTONIC_CLOCK=200112L -D_POSIX_CPUTIME=200112L -D_POSIX_THREAD_CPUTIME=200112L")
set(CMAKE_C_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${SHMEM_ARCH_FLAGS}")
# riscv64-unknown-elf-ld refuses -pie; Debian's riscv64-linux-gnu linker, reached through -B, links the same
# objects into a position-independent executable whose only dynamic relocations are R_RISCV_RELATIVE.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-nostartfiles -B/usr/riscv64-linux-gnu/bin/ -Wl,-pie,--no-dynamic-linker,-z,norelro,--no-warn-rwx-segments")

# There is no C++ standard library for riscv64-unknown-elf in Debian (not even its headers): C++ is compiled
# without exceptions and RTTI, and programs link with the C driver (g++ would add -lstdc++). libshmem gives
# new/delete and the rest of the C++ runtime that such programs need.
set(SHMEM_CXX_RUNTIME none)
set(CMAKE_CXX_LINK_EXECUTABLE
    "${CMAKE_C_COMPILER} <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(SHMEM_TARGET_NOTE "")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

set(SHMEM_PORT_DIR virt-rv64)
# The startup code and picolibc's stdout are pulled in by name (nothing in a program refers to them).
set(SHMEM_PORT_LINK_OPTIONS -Wl,-u,_start -Wl,-u,stdout)
