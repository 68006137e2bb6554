# linux: PEs as processes of this host (or of the Linux SHMEM_LINUX_CROSS names), sharing a memfd.
set(SHMEM_PORT linux)
set(SHMEM_PORT_VARIANT "")
set(SHMEM_TARGET_SUMMARY "this host's Linux, one process per PE")
set(SHMEM_MAX_PES 512)                    # what the tests and the library's tables are sized for
set(SHMEM_BARRIER_DEFAULT auto)                   # the counter in PE 0's memory on one node; dissemination across nodes
set(SHMEM_SMALL_SIZES_DEFAULT OFF)
set(SHMEM_TIMEOUT_FACTOR_DEFAULT 1)
set(SHMEM_TREE_PES 20)
set(SHMEM_PORT_DEFINITIONS "")
set(SHMEM_CORE_SOURCE_OPTIONS "")
set(SHMEM_PORT_NET ucx)                   # runs across nodes through UCX (port/linux/net.cpp; capability multinode)
set(SHMEM_CAPABILITIES
  run
  hosted              # PEs are the host's processes: killed by signals, host gdb, the host's C library
  libc_host           # the C runtime is the host's (glibc): its assert and abort, its malloc
  sanitizers          # SHMEM_SANITIZE (ASan, UBSan, TSan)
  msg_channel_option  # SHMEM_LINUX_MSG_CHANNEL: the channels' message path over an emulated queue per PE
  ends_observed       # a PE's end is seen by the others' library waits (port::ends_observed)
  ieee_float          # the host's float and double (or the cross target's: aarch64, armhf VFP)
)
set(SHMEM_ELF_MACHINE "")           # readelf's name of the images' machine ("": the host's)
set(SHMEM_IMAGE_MACHINE "")
set(SHMEM_TRAP_REPORT signal)             # trap reports: "trap: <what> (SIG...) at pc ..., address ..."
set(SHMEM_STACK_GUARD guard_gap)          # the kernel's guard gap below the stack
# exit, atexit and the C++ runtime are the host C library's: crt/common is not part of this port.
set(SHMEM_CRT_COMMON OFF)
