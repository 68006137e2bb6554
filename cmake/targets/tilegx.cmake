# tilegx: Tilera TILE-Gx36 (6x6 tiles) bare metal, one tile per PE, run on oshrun's own TILE-Gx simulator
# (sim/tilegx, docs/tile.md).
set(SHMEM_PORT tile)
set(SHMEM_PORT_VARIANT tilegx)                # port/tile/tilegx: the chip's constants (and cmake/toolchain-tile.cmake's compiler)
set(SHMEM_TARGET_SUMMARY "Tilera TILE-Gx36 (6x6 tiles), one tile per PE; runs on oshrun's TILE-Gx simulator")
set(SHMEM_MAX_PES 36)                     # the chip's tiles (TSHMEM's measurements)
set(SHMEM_BARRIER_DEFAULT wand)
set(SHMEM_SMALL_SIZES_DEFAULT OFF)
set(SHMEM_TIMEOUT_FACTOR_DEFAULT 1)
set(SHMEM_TREE_PES "")
set(SHMEM_CHIP_SCALE_PES 36)              # the tests labelled chip_scale run on the whole chip too
set(SHMEM_PORT_DEFINITIONS "")
set(SHMEM_CORE_SOURCE_OPTIONS "")
set(SHMEM_CAPABILITIES
  run                 # on oshrun's TILE-Gx simulator (sim/tilegx)
  simulated_isa       # ... which executes every instruction of every image built (a test scans them)
  msg_channel         # the shmemx channels' values travel as UDN messages
  distinct_static_addresses  # one relocated copy of the image per partition
  footprint           # the footprint report of bench/footprint runs as a test (no budget)
  ieee_float          # GCC's sequences of the fsingle/fdouble helpers and libgcc's soft-fp division: IEEE 754
)
set(SHMEM_ELF_MACHINE "Tilera TILE-Gx")           # readelf's name of the images' machine ("": the host's)
set(SHMEM_IMAGE_MACHINE "")
set(SHMEM_TRAP_REPORT "")
set(SHMEM_STACK_GUARD "")
