# A target's facts: cmake/targets/<target>.cmake, one file per target; the list of targets is the list of those
# files. shmem_load_target(<dir> <target>) reads one and checks it; every build file then asks the facts, never the
# target's name. Installed beside the CMake package (with the installed target's facts file), so that a user's
# project sees the same facts.
#
# What a facts file sets (each of them, even when empty):
#   SHMEM_PORT                   port/<port>, crt/<port>, linker/<port>, cmake/toolchain-<port>.cmake
#   SHMEM_PORT_VARIANT           port/<port>/<variant>/ (the chip's constants) for a port of several chips, or ""
#   SHMEM_TARGET_SUMMARY         one line: the machine and what a PE is
#   SHMEM_MAX_PES                the most PEs a run can have (oshrun's limit for the target must agree: a test checks)
#   SHMEM_BARRIER_DEFAULT        SHMEM_BARRIER's default: wand, dissemination or auto
#   SHMEM_SMALL_SIZES_DEFAULT    SHMEM_SMALL_SIZES's default (ON where a PE has 32 KB for everything)
#   SHMEM_TIMEOUT_FACTOR_DEFAULT SHMEM_TIMEOUT_FACTOR's default: the tests' time limits are set for virt-rv64
#   SHMEM_TREE_PES               PE counts above the flat sweeps' limit at which the collective families run again
#   SHMEM_PORT_DEFINITIONS       compile definitions of the library and the tests (the library's table sizes)
#   SHMEM_CORE_SOURCE_OPTIONS    per-source compile options of the core, "file.cpp=-opt1,-opt2;..."
#   SHMEM_CAPABILITIES           what tests may ask for (SHMEM_HAS_<capability> is ON for each):
#       run                 programs run here (an emulator, a simulator, processes); without it each test is built
#                           and placed by one oshrun --dry-run
#       emulator            one emulator process runs the PEs (oshrun passes its options; its failure is 125)
#       icount              oshrun --icount counts instructions deterministically
#       gdb_stub            oshrun --gdb through the emulator's gdb server
#       hosted              PEs are this host's processes (signals, the host's gdb and C library)
#       libc_crt            the C runtime is libshmem's own (malloc on a private heap, assert/abort, new, getenv)
#       libc_host           the C runtime is the host's
#       default_heap        oshrun gives the symmetric heap SHMEM_SYMMETRIC_SIZE says (64 MiB by default)
#       image_checks        oshrun refuses an image of another machine, naming SHMEM_IMAGE_MACHINE
#       local_memory_link   an image too big for a core's local memory fails to link, with the script's message
#       small_checked_conformance  with checks, all routines' messages exceed local memory: the program only links
#       msg_channel         the shmemx channels' values travel as messages (TILE's UDN)
#       msg_channel_option  SHMEM_LINUX_MSG_CHANNEL may turn that on (an emulated queue per PE)
#       ipi_get_option      SHMEM_USE_IPI_GET is available
#       sanitizers          SHMEM_SANITIZE is available
#       footprint           the footprint budget programs are guarded (SHMEM_FOOTPRINT_BUDGET)
#       ends_observed       a library wait that a PE's end left endless is reported (port::ends_observed)
#       ends_observed_with_checks  the same in the builds with SHMEM_CHECKS only
#       simulated_isa       oshrun's own instruction-set simulator runs the images: a test checks that it executes
#                           every instruction of every image built (oshrun warns of any other at each run)
#       distinct_static_addresses  every PE runs its own copy of the image at an address of its own (TILE): a pointer
#                           to static data that another PE hands over points into that PE's copy
#       ieee_float          float and double arithmetic is IEEE 754 binary32/binary64 with round-to-nearest-even
#                           and denormals, as the host's: the semantics test compares its floating-point groups
#       multinode           runs span nodes (oshrun --nodes): not in a facts file; added by the build where it finds
#                           the engine that SHMEM_PORT_NET names
#   SHMEM_ELF_MACHINE            the images' machine as readelf names it (a test checks every image), "" for the
#                                host's own
#   SHMEM_IMAGE_MACHINE          what oshrun's refusal of a foreign image names (with image_checks)
#   SHMEM_TRAP_REPORT            how a trap is reported: mcause (RISC-V cause and mcause), signal (the host's
#                                signal), or "" (no trap test)
#   SHMEM_STACK_GUARD            how a stack overflow is caught: trap (a guard region, at once), guard_gap (the
#                                kernel's gap below the stack), guard_word (a word checked at barriers), or ""
# Optional: SHMEM_FOOTPRINT_BUDGET ("program=bytes;...": the most text a budget program may add over fp_empty),
#           SHMEM_CRT_COMMON (OFF: the port keeps its C library's exit/atexit and C++ runtime, not crt/common),
#           SHMEM_CHIP_SCALE_PES (a whole chip's PEs: the tests labelled chip_scale run at that count too),
#           SHMEM_PORT_NET (the network engine of runs across nodes: ucx; the build looks for it, CMakeLists.txt).

set(_shmem_target_facts SHMEM_PORT SHMEM_PORT_VARIANT SHMEM_TARGET_SUMMARY SHMEM_MAX_PES SHMEM_BARRIER_DEFAULT
    SHMEM_SMALL_SIZES_DEFAULT SHMEM_TIMEOUT_FACTOR_DEFAULT SHMEM_TREE_PES SHMEM_PORT_DEFINITIONS
    SHMEM_CORE_SOURCE_OPTIONS SHMEM_CAPABILITIES SHMEM_ELF_MACHINE SHMEM_IMAGE_MACHINE SHMEM_TRAP_REPORT SHMEM_STACK_GUARD)
set(_shmem_optional_facts SHMEM_FOOTPRINT_BUDGET SHMEM_CRT_COMMON SHMEM_CHIP_SCALE_PES SHMEM_PORT_NET)
set(_shmem_known_capabilities run emulator icount gdb_stub hosted libc_crt libc_host default_heap image_checks
    local_memory_link small_checked_conformance msg_channel msg_channel_option ipi_get_option sanitizers footprint
    ends_observed ends_observed_with_checks simulated_isa distinct_static_addresses ieee_float multinode)

# shmem_target_names(<out> <dir>): the targets whose facts files are in <dir>, sorted.
function(shmem_target_names out dir)
  file(GLOB _files RELATIVE "${dir}" "${dir}/*.cmake")
  list(SORT _files)
  list(TRANSFORM _files REPLACE "\\.cmake$" "")
  set(${out} ${_files} PARENT_SCOPE)
endfunction()

# shmem_load_target(<dir> <target>): the facts of <target> from <dir>/<target>.cmake, in the caller's scope, and
# SHMEM_HAS_<capability> for each known capability.
macro(shmem_load_target _dir _target)
  foreach(_fact IN LISTS _shmem_target_facts)
    unset(${_fact})
  endforeach()
  foreach(_fact IN LISTS _shmem_optional_facts)
    unset(${_fact})
  endforeach()
  include("${_dir}/${_target}.cmake")
  foreach(_fact IN LISTS _shmem_target_facts)
    if(NOT DEFINED ${_fact})
      message(FATAL_ERROR "${_dir}/${_target}.cmake does not set ${_fact} (cmake/target.cmake lists the facts)")
    endif()
  endforeach()
  # (list(FIND), not IN_LIST: this file is also read by scripts, which run with the oldest policies)
  foreach(_cap IN LISTS SHMEM_CAPABILITIES)
    list(FIND _shmem_known_capabilities "${_cap}" _at)
    if(_at EQUAL -1)
      message(FATAL_ERROR "${_dir}/${_target}.cmake: unknown capability '${_cap}' (cmake/target.cmake lists them)")
    endif()
  endforeach()
  foreach(_cap IN LISTS _shmem_known_capabilities)
    list(FIND SHMEM_CAPABILITIES "${_cap}" _at)
    if(_at EQUAL -1)
      set(SHMEM_HAS_${_cap} OFF)
    else()
      set(SHMEM_HAS_${_cap} ON)
    endif()
  endforeach()
endmacro()
