# virt-rv64: QEMU's RISC-V `virt` machine, one hart per PE (cmake/target.cmake says what each fact means).
set(SHMEM_PORT virt-rv64)
set(SHMEM_PORT_VARIANT "")
set(SHMEM_TARGET_SUMMARY "QEMU virt, RISC-V 64, one hart per PE")
set(SHMEM_MAX_PES 512)                    # the harts QEMU 7.2's virt machine takes
set(SHMEM_BARRIER_DEFAULT wand)
set(SHMEM_SMALL_SIZES_DEFAULT OFF)
set(SHMEM_TIMEOUT_FACTOR_DEFAULT 1)       # the tests' limits are set for this target
set(SHMEM_TREE_PES 20)                    # the collective families once more above flat_max (16)
set(SHMEM_PORT_DEFINITIONS "")
# GCC 12's scheduling before register allocation made the AMO entry points copy an argument into another register
# (shmem_long_atomic_inc: 14 instructions where 13 do); without it amo.cpp is also 84 bytes smaller.
set(SHMEM_CORE_SOURCE_OPTIONS "amo.cpp=-fno-schedule-insns")
set(SHMEM_CAPABILITIES
  run                 # programs run here (QEMU)
  emulator            # one emulator process runs the PEs: --extra-qemu-arg, its failure is status 125
  icount              # oshrun --icount: deterministic instruction counts
  gdb_stub            # oshrun --gdb through the emulator's gdb server (gdb-multiarch)
  libc_crt            # the C runtime is libshmem's (crt/): private malloc heap, assert/abort, new, getenv
  default_heap        # oshrun sizes the symmetric heap from SHMEM_SYMMETRIC_SIZE (default 64 MiB up to 16 PEs)
  image_checks        # oshrun refuses a bad image before anything runs (the machine name below)
  ends_observed_with_checks  # a PE's end is seen by the others' library waits in the builds with checks
  ieee_float          # RV64GC's F and D extensions: IEEE 754 float and double
)
set(SHMEM_ELF_MACHINE "RISC-V")           # readelf's name of the images' machine ("": the host's)
set(SHMEM_IMAGE_MACHINE "RISC-V")         # what oshrun's refusal of an image of another machine names
set(SHMEM_TRAP_REPORT mcause)             # trap reports: "trap: <cause> (mcause n) at pc ..."
set(SHMEM_STACK_GUARD trap)               # a stack overflow traps at once in a guard below the stack
