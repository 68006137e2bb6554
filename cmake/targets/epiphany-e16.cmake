# epiphany-e16: Epiphany-III (E16G301, 4x4 cores, Parallella), one core per PE, 32 KB of local memory each.
set(SHMEM_PORT epiphany)
set(SHMEM_PORT_VARIANT e16)                # port/epiphany/e16: the chip's constants
set(SHMEM_TARGET_SUMMARY "Epiphany-III (E16G301, 4x4 cores, Parallella), one core per PE")
set(SHMEM_MAX_PES 16)                     # the chip's cores
set(SHMEM_BARRIER_DEFAULT auto)           # WAND needs every core of the chip: dissemination in smaller runs
set(SHMEM_SMALL_SIZES_DEFAULT ON)         # code, data, symmetric heap and stack share a core's 32 KB
set(SHMEM_TIMEOUT_FACTOR_DEFAULT 2)       # oshrun's simulator (1 for a board, 10 for Adapteva's esim)
set(SHMEM_TREE_PES "")
# 32 KB for everything: the library's fixed tables are cut to what a core can spare. Each team slot is 256 B of
# flags plus the reduction work area; 4 teams (WORLD, SHARED and two more) and 8 contexts.
set(SHMEM_PORT_DEFINITIONS SHMEM_MAX_TEAMS=4 SHMEM_MAX_CONTEXTS=8 SHMEM_TEAM_WORK_UNIT=64 SHMEM_CRT_MAX_ATEXIT=8)
set(SHMEM_CORE_SOURCE_OPTIONS "")
set(SHMEM_CAPABILITIES
  run                 # on oshrun's Epiphany simulator (or a board, or esim)
  ipi_get_option      # SHMEM_USE_IPI_GET: large gets served by the owner core
  local_memory_link   # an image too big for a core's local memory fails to link, with the linker script's message
  small_checked_conformance  # with checks, every routine's messages exceed 32 KB: the conformance program only links
  footprint           # the footprint report of bench/footprint runs as a test, a guard with the budget below
  ends_observed_with_checks  # a PE's end is seen by the others' library waits in the builds with checks
)
# The most text fp_min and fp_rma may add over fp_empty (bytes, MinSizeRel): a test fails above it.
set(SHMEM_FOOTPRINT_BUDGET "fp_min=248;fp_rma=1564")
set(SHMEM_ELF_MACHINE "Adapteva EPIPHANY")           # readelf's name of the images' machine ("": the host's)
set(SHMEM_IMAGE_MACHINE "")
set(SHMEM_TRAP_REPORT "")
set(SHMEM_STACK_GUARD guard_word)         # a guard word below the stack, checked at barriers and exit
