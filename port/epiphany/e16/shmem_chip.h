/* Epiphany-III (E16G301, the Parallella-16's chip): the constants that differ between E16 and E64. */
#ifndef SHMEM_EPIPHANY_CHIP_H
#define SHMEM_EPIPHANY_CHIP_H
#define SHMEM_CHIP_NAME "epiphany-e16"
#define SHMEM_CHIP_ROWS 4
#define SHMEM_CHIP_COLS 4
#define SHMEM_CHIP_MAX_PES 16
#endif
