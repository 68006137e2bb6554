/* libshmem extensions to OpenSHMEM 1.5 (not portable to other implementations). */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* shmem_barrier_all with a chosen algorithm (shmem_barrier_all itself uses the one the build selected with
 * SHMEM_BARRIER): the port's WAND-style hardware barrier, or the software dissemination barrier. */
void shmemx_barrier_all_wand(void);
void shmemx_barrier_all_dissemination(void);

/* The PE's cycle counter (virt-rv64: rdcycle, one retired instruction per cycle under oshrun --icount;
 * Epiphany: clock cycles, CTIMER0 and the count of its wraps). For benchmarks, not for tests. */
uint64_t shmemx_cycles(void);

/* ---- channels: fine-grained messages of one 64-bit word between two PEs (docs/channels.md) ---------------
 *
 * A channel carries uint64_t values from one sender PE to one receiver PE, in order and each exactly once,
 * through 1..SHMEMX_CHANNEL_MAX_SLOTS slots. Each side waits only on its own memory: the values and the count
 * of values posted live in the receiver's copy of the channel, the count of values taken in the sender's copy,
 * and the other side stores into them remotely and wakes the waiter. A waiting PE sleeps; it never spins.
 *
 * shmemx_channel_t is a symmetric object (static data or the symmetric heap), the same object on every PE.
 * shmemx_channel_init is local (no communication): both endpoints call it with the same arguments (other PEs
 * may, too), and the program synchronizes the two (e.g. shmem_barrier_all) before the first send. A channel
 * may be initialised again once it is empty and neither side uses it, again followed by a synchronization.
 * sender and receiver are PE numbers of SHMEM_TEAM_WORLD and may be the same PE. Only the sender may send and
 * only the receiver may receive: any other call is reported (status 134), as are bad arguments. */
#define SHMEMX_CHANNEL_MAX_SLOTS 8

typedef struct {
    uint64_t shmemx_opaque_[SHMEMX_CHANNEL_MAX_SLOTS + 8];
} shmemx_channel_t;

void shmemx_channel_init(shmemx_channel_t *ch, int sender, int receiver, int slots);
/* Blocks (asleep) while every slot is full. */
void shmemx_channel_send(shmemx_channel_t *ch, uint64_t value);
/* Blocks (asleep) while the channel is empty; returns the oldest value. */
uint64_t shmemx_channel_recv(shmemx_channel_t *ch);
/* Never block: 1 if the value was sent (a value was taken and stored to *value unless value is NULL), 0 if
 * the channel was full (empty). */
int shmemx_channel_try_send(shmemx_channel_t *ch, uint64_t value);
int shmemx_channel_try_recv(shmemx_channel_t *ch, uint64_t *value);

/* Many-to-one: the receiver's fair selection among channels it receives on, typically one per sender. The set
 * is the receiver's private object (it need not be symmetric) over the array chans[0 .. nchans-1], whose
 * channels must all have been initialised with the calling PE as their receiver; shmemx_channel_set_init is
 * local. recv_any blocks until a channel of the set has a value and takes it from the first such channel after
 * the one it served last (round robin), so a channel that has a value waits for at most nchans - 1 others;
 * it stores that channel's index in chans to *index unless index is NULL. try_recv_any never blocks and
 * returns 1 if it took a value, 0 if no channel had one. */
typedef struct {
    uint64_t shmemx_opaque_[4];
} shmemx_channel_set_t;

void shmemx_channel_set_init(shmemx_channel_set_t *set, shmemx_channel_t *chans, int nchans);
uint64_t shmemx_channel_recv_any(shmemx_channel_set_t *set, int *index);
int shmemx_channel_try_recv_any(shmemx_channel_set_t *set, uint64_t *value, int *index);

#ifdef __cplusplus
}
#endif

#endif
