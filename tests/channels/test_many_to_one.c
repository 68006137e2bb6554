/* Many-to-one: every PE sends to PE 0 on its own channel (chans[p]: PE p -> PE 0, PE 0's included), and PE 0
 * receives with shmemx_channel_recv_any over the set of all of them.
 *
 * Part 1, the selection rule exactly: the chosen senders each fill their K slots, then (after a barrier, so
 * every value is in place) PE 0 drains them. With every value present, recv_any must serve the senders round
 * robin, each time the first ready one after the one served last: the test predicts the whole order, index by
 * index, across rounds with different sets of senders (all, every third, one). So between two values of a
 * sender that stays ready come at most (senders - 1) others.
 *
 * Part 2, continuous load: every PE but 0 sends COUNT values as fast as it can (PE 0's own channel stays idle);
 * every value must arrive exactly once and in order per sender. The largest number of other values between two
 * values of one sender is printed. Free-running, it depends on the schedule: a sender that has not refilled its
 * slot when the scan passes it is rightly skipped (a host with fewer cores than PEs gives gaps of hundreds).
 * With the argument "strict" the rule itself is checked under the same load, on any schedule: each sender also
 * counts its sends in PE 0's memory, and before each recv_any PE 0 waits until every sender with values left has
 * one in its channel; then recv_any must serve exactly the sender the round robin names, and the largest gap is
 * at most (senders - 1). (It used to be asserted only under `oshrun --icount`, whose fixed round robin of the
 * harts made the senders keep up; that rested on QEMU's time slices, which any change of a wait's timer moved.) */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "check.h"

#define COUNT 400

static shmemx_channel_t *chans;
static shmemx_channel_set_t set; /* PE 0's, private */
static int next_model;          /* PE 0: where the set's next scan starts, as the rule says */
static int *seq_in, *remaining, *first; /* PE 0: per sender */
static int *sent;                       /* PE 0's: sent[p] = values PE p has sent in part 2 (strict only) */
static int strict;              /* assert the gap bound under continuous load (argv[1] == "strict") */

static uint64_t value(int pe, int seq) { return ((uint64_t)pe << 32) | (uint64_t)seq; }

static void check_value(uint64_t got, int index)
{
    CHECK(got == value(index, seq_in[index]), "value %#llx from chans[%d]; expected %#llx", (unsigned long long)got,
          index, (unsigned long long)value(index, seq_in[index]));
    ++seq_in[index];
}

/* Part 1: senders with (p % stride == phase) fill their K slots; PE 0 drains in the predicted order. */
static void exact_round(int slots, int stride, int phase, int *seq_out)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int chosen = me % stride == phase;
    if (chosen)
        for (int i = 0; i < slots; ++i) shmemx_channel_send(&chans[me], value(me, (*seq_out)++));
    shmem_barrier_all();
    if (me == 0) {
        int total = 0;
        for (int p = 0; p < n; ++p) total += remaining[p] = p % stride == phase ? slots : 0;
        for (int t = 0; t < total; ++t) {
            int expected = next_model;
            while (remaining[expected] == 0) expected = (expected + 1) % n;
            int index = -1;
            const uint64_t got = shmemx_channel_recv_any(&set, &index);
            CHECK(index == expected, "K=%d stride %d phase %d, value %d of %d: served chans[%d]; round robin expects "
                  "chans[%d]", slots, stride, phase, t, total, index, expected);
            check_value(got, index);
            --remaining[index];
            next_model = (index + 1) % n;
        }
        uint64_t extra;
        int index;
        CHECK(shmemx_channel_try_recv_any(&set, &extra, &index) == 0, "an extra value %#llx from chans[%d]",
              (unsigned long long)extra, index);
    }
    shmem_barrier_all();
}

static void continuous(int slots, int *seq_out)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (me != 0) {
        for (int i = 0; i < COUNT; ++i) {
            shmemx_channel_send(&chans[me], value(me, (*seq_out)++));
            if (strict) shmem_int_atomic_inc(&sent[me], 0);
        }
    } else if (n > 1) {
        int *last = remaining; /* reused: position of each sender's previous value, -1 before the first */
        for (int p = 0; p < n; ++p) last[p] = -1;
        for (int p = 0; p < n; ++p) first[p] = seq_in[p];
        const int total = (n - 1) * COUNT;
        int max_gap = 0;
        for (int t = 0; t < total; ++t) {
            int expected = -1;
            if (strict) {
                /* every sender with values left has one in its channel: the rule names the next one exactly */
                for (int p = 1; p < n; ++p)
                    if (seq_in[p] - first[p] < COUNT) shmem_int_wait_until(&sent[p], SHMEM_CMP_GT, seq_in[p] - first[p]);
                expected = next_model;
                while (expected == 0 || seq_in[expected] - first[expected] == COUNT) expected = (expected + 1) % n;
            }
            int index = -1;
            const uint64_t got = shmemx_channel_recv_any(&set, &index);
            CHECK(index >= 1 && index < n, "served chans[%d], which nobody sends on", index);
            CHECK(!strict || index == expected, "K=%d, value %d of %d: served chans[%d] with every sender ready; round "
                  "robin expects chans[%d]", slots, t, total, index, expected);
            check_value(got, index);
            if (last[index] >= 0 && t - last[index] - 1 > max_gap) max_gap = t - last[index] - 1;
            last[index] = t;
            next_model = (index + 1) % n;
        }
        for (int p = 1; p < n; ++p)
            CHECK(seq_in[p] - first[p] == COUNT, "K=%d: %d values from PE %d; expected %d", slots, seq_in[p] - first[p],
                  p, COUNT);
        printf("many_to_one: K=%d, %d senders x %d values: largest gap between two values of one sender %d "
               "(senders - 1 = %d)\n", slots, n - 1, COUNT, max_gap, n - 2);
        CHECK(!strict || max_gap <= n - 2, "K=%d: %d other values between two values of one sender; expected at most "
              "%d (senders - 1)", slots, max_gap, n - 2);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    strict = argc > 1 && strcmp(argv[1], "strict") == 0;
    const int me = shmem_my_pe(), n = shmem_n_pes();
    chans = shmem_malloc((size_t)n * sizeof *chans);
    seq_in = shmem_malloc((size_t)n * sizeof *seq_in);
    remaining = shmem_malloc((size_t)n * sizeof *remaining);
    first = shmem_malloc((size_t)n * sizeof *first);
    sent = shmem_malloc((size_t)n * sizeof *sent);
    CHECK(chans != NULL && seq_in != NULL && remaining != NULL && first != NULL && sent != NULL, "shmem_malloc");

    const int kinds[] = {1, 2, 3};
    for (int k = 0; k < 3; ++k) {
        const int slots = kinds[k];
        for (int p = 0; p < n; ++p) shmemx_channel_init(&chans[p], p, 0, slots);
        if (me == 0) {
            shmemx_channel_set_init(&set, chans, n);
            next_model = 0;
            for (int p = 0; p < n; ++p) seq_in[p] = 0;
            for (int p = 0; p < n; ++p) sent[p] = 0;
        }
        int seq_out = 0;
        shmem_barrier_all();
        for (int round = 0; round < 3; ++round) {
            exact_round(slots, 1, 0, &seq_out);
            exact_round(slots, 3, round % 3, &seq_out);
            exact_round(slots, n, (n - 1 + round) % n, &seq_out); /* one sender */
        }
        continuous(slots, &seq_out);
    }
    if (me == 0) printf("many_to_one: %d PEs: ok\n", n);
    shmem_free(sent);
    shmem_free(first);
    shmem_free(remaining);
    shmem_free(seq_in);
    shmem_free(chans);
    shmem_finalize();
    return 0;
}
