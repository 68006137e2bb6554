# tilepro: Tilera TILEPro64 (8x8 tiles) bare metal, one tile per PE. Nothing here runs a TILE image: built and placed (docs/tile.md).
set(SHMEM_PORT tile)
set(SHMEM_PORT_VARIANT tilepro)                # port/tile/tilepro: the chip's constants (and cmake/toolchain-tile.cmake's compiler)
set(SHMEM_TARGET_SUMMARY "Tilera TILEPro64 (8x8 tiles), one tile per PE; plan and boot files only")
set(SHMEM_MAX_PES 64)                     # the chip's tiles (TSHMEM's measurements)
set(SHMEM_BARRIER_DEFAULT wand)
set(SHMEM_SMALL_SIZES_DEFAULT OFF)
set(SHMEM_TIMEOUT_FACTOR_DEFAULT 1)
set(SHMEM_TREE_PES "")
set(SHMEM_PORT_DEFINITIONS "")
set(SHMEM_CORE_SOURCE_OPTIONS "")
set(SHMEM_CAPABILITIES
  msg_channel         # the shmemx channels' values travel as UDN messages
  distinct_static_addresses  # one relocated copy of the image per partition
  footprint           # the footprint report of bench/footprint runs as a test (no budget)
  ieee_float          # no FPU: libgcc's soft-fp, IEEE 754
)
set(SHMEM_ELF_MACHINE "Tilera TILEPro")           # readelf's name of the images' machine ("": the host's)
set(SHMEM_IMAGE_MACHINE "")
set(SHMEM_TRAP_REPORT "")
set(SHMEM_STACK_GUARD "")
