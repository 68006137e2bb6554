/* Epiphany-IV (E64G401, the Parallella-64's chip): the constants that differ between E16 and E64. */
#ifndef SHMEM_EPIPHANY_CHIP_H
#define SHMEM_EPIPHANY_CHIP_H
#define SHMEM_CHIP_NAME "epiphany-e64"
#define SHMEM_CHIP_ROWS 8
#define SHMEM_CHIP_COLS 8
#define SHMEM_CHIP_MAX_PES 64
#endif
