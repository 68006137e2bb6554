/* Streaming matrix-vector map: emitter -> W workers -> collector.
 *
 *   oshrun -np N matvec.elf [M [S [tree|linear|both [inject]]]]     (defaults 56 32 both; N >= 3; Epiphany:
 *                                                                    M <= 16, S <= 32, default M 16)
 *
 * PE 0 is the emitter, PEs 1..W (W = N - 2) are the workers, PE N-1 is the collector. The emitter generates a
 * stream of S integer M x M matrices A_i, each a deterministic function of its index i; matrix i belongs to
 * worker 1 + (i mod W), which computes y_i = A_i x for a vector x that every PE generates itself, and sends y_i
 * to the collector. The collector keeps every y_i and, after the timed stream, recomputes A_i x serially for
 * every i and compares every element (exit 1 on any mismatch). The optional fourth argument "inject" makes one
 * worker deliver one wrong element, which the check must catch (a ctest expects that failure).
 *
 * Exactness: elements of A and x are in [-2048, 2047], so |a * x| <= 2^22 and a row of at most 168 < 2^8 terms
 * sums to less than 2^30: int32 accumulation is exact for every allowed M.
 *
 * Distribution (one code path, two routing functions). Workers are the nodes 1..W of a heap whose root 0 is the
 * emitter: node n has children 2n+1 and 2n+2 (when <= W), so worker PE numbers are the heap node numbers.
 *   - linear: the emitter is everybody's parent and sends matrix i straight to its worker;
 *   - tree:   the emitter sends to its two children only; a worker that receives a matrix for another node of
 *             its subtree forwards it to the child whose subtree holds the owner, straight out of its input slot.
 * Every node receives its messages in increasing matrix index, and every channel is FIFO, which is what makes
 * the pipeline deadlock-free: the oldest matrix still in flight is always at the head of every queue it needs.
 *
 * Channels. Each PE has one input channel from its parent: two symmetric slots (double buffering: the parent
 * fills one while the child works on the other) each with a uint64 signal. The k-th message (k = 0, 1, ...) to
 * a child goes to slot k mod 2 with shmem_putmem_signal(..., signal = k + 1, SHMEM_SIGNAL_SET): the data lands
 * before the signal, and the receiver sleeps in shmem_signal_wait_until(slot signal >= k + 1). Flow control is
 * by credits: after the child is done with its r-th message (computed, or forwarded) it writes r + 1 into
 * acked[child] on its parent (one writer per word, monotonic, so a plain shmem_uint64_p suffices), and the
 * parent waits for acked[child] >= k - 1 (message k - 2, the slot's last user, is done) before it sends
 * message k. Results travel the same way from each worker to the collector (per-worker double-buffered result
 * slots on the collector; the collector's credits go to res_acked on the worker). Nobody spins: every wait
 * sleeps and is woken by the writer's put.
 *
 * What the tree does and does not buy. Every matrix still leaves the emitter exactly once in both modes (one put
 * of M * M words), so the emitter's bytes per matrix are the same; the tree cuts the emitter's fan-out (channels,
 * credit words, wake targets) from W to 2 and turns far sends into parent-to-child sends, and pays for it with
 * one extra copy of the matrix per tree level between the emitter and the owner (depth - 1 forwards).
 *
 * Measurement: the stream runs from the emitter's first instruction after the starting barrier to the
 * collector's receipt of the last result; both ends read the machine-wide counter (reading both on one PE around
 * barriers would add the emulator's scheduling slack: the emitter can run a whole time slice of the stream
 * before the collector wakes). Cycles per matrix = that interval / S. Under `oshrun --icount` a cycle is one
 * retired instruction of the whole machine, so this is the work of all PEs per matrix (generation + copies +
 * multiply + synchronization), not the wall time of a parallel machine: perfect parallelism shows up as a
 * constant, overheads as growth. To let the reader model the parallel throughput (the slowest stage), the
 * emitter first measures the cost of each stage alone (generate, multiply, put a matrix) and prints it.
 * CSV lines: `csv:matvec:mode,m,workers,matrices,cycles_per_matrix` (header once), then one per mode. */
#include <shmem.h>
#include <shmemx.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits of the static buffers. Where a PE has 32 KB for code, data, heap and stack (SHMEM_SMALL_SIZES, set by
 * cmake/shmem.cmake for Epiphany; the code runs from external DRAM there) they are M <= 16, S <= 32 and the
 * chip's cores: input slots 2 KB, result slots 128 B per worker, kept results 2 KB. */
#if SHMEM_SMALL_SIZES
#define MAX_M 16
#define MAX_PES (SHMEM_TARGET_MAX_PES < 64 ? SHMEM_TARGET_MAX_PES : 64)
#define MAX_S 32
#else
#define MAX_M 168
#define MAX_PES 64
#define MAX_S 512
#endif
#define SLOTS 2 /* double buffering */

enum mode { LINEAR, TREE };

struct matrix_msg {
    int64_t index;               /* which matrix of the stream */
    int32_t a[MAX_M * MAX_M];    /* row-major, only M * M used and sent */
};

/* Symmetric (static data is symmetric). */
static struct matrix_msg in_slot[SLOTS];      /* input channel from the parent; the emitter generates into [0] */
static uint64_t in_sig[SLOTS];                /* k + 1 once the k-th message is in slot k mod SLOTS */
static uint64_t acked[MAX_PES];               /* on a sender: messages child c has finished with */
static int32_t res_slot[MAX_PES][SLOTS][MAX_M]; /* on the collector: result slots per worker */
static uint64_t res_sig[MAX_PES][SLOTS];
static uint64_t res_acked;                    /* on a worker: results the collector has taken */
static uint64_t stream_start;                 /* on the emitter: machine cycle count when the stream started */

/* Private. */
static uint64_t sent[MAX_PES];                /* messages sent to each child in this run */
static int32_t x[MAX_M];
static int32_t y_local[MAX_M];
static int32_t results[MAX_S * MAX_M];        /* the collector keeps every y_i for the check */
static uint64_t stream_end;
static int npes, me, workers, collector, m, stream;

/* A_i: an LCG seeded from the index, 12-bit signed elements. */
static void generate(int64_t index, int32_t *a)
{
    uint64_t s = (uint64_t)(index + 1) * 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < m * m; ++k) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[k] = (int32_t)(s >> 52) - 2048;
    }
}

static void make_x(void)
{
    for (int j = 0; j < m; ++j) x[j] = (int32_t)((j * 2654435761u) >> 20) - 2048;
}

static void multiply(const int32_t *a, int32_t *y)
{
    for (int r = 0; r < m; ++r) {
        const int32_t *row = a + (size_t)r * m;
        int32_t acc = 0;
        for (int j = 0; j < m; ++j) acc += row[j] * x[j];
        y[r] = acc;
    }
}

static int owner(int64_t i) { return 1 + (int)(i % workers); }

/* Heap-tree node numbers are PE numbers; the emitter is node 0. */
static int next_hop(int node, int dest, enum mode md)
{
    if (md == LINEAR) return dest;
    while ((dest - 1) / 2 != node) dest = (dest - 1) / 2;
    return dest;
}

static int own_count(int w) { return stream / workers + (w - 1 < stream % workers); }

static int subtree_count(int node)
{
    if (node > workers) return 0;
    return own_count(node) + subtree_count(2 * node + 1) + subtree_count(2 * node + 2);
}

static size_t msg_bytes(void) { return offsetof(struct matrix_msg, a) + (size_t)m * m * sizeof(int32_t); }

/* The k-th message to child: wait for the credit of message k - SLOTS, then put data + signal. */
static void send_matrix(int child, const struct matrix_msg *msg)
{
    const uint64_t k = sent[child];
    if (k >= SLOTS) shmem_uint64_wait_until(&acked[child], SHMEM_CMP_GE, k - SLOTS + 1);
    shmem_putmem_signal(&in_slot[k % SLOTS], msg, msg_bytes(), &in_sig[k % SLOTS], k + 1, SHMEM_SIGNAL_SET, child);
    sent[child] = k + 1;
}

static void worker(enum mode md, int inject)
{
    const int parent = md == LINEAR ? 0 : (me - 1) / 2;
    const int incoming = md == LINEAR ? own_count(me) : subtree_count(me);
    uint64_t results_sent = 0;
    for (int r = 0; r < incoming; ++r) {
        const int slot = r % SLOTS;
        shmem_signal_wait_until(&in_sig[slot], SHMEM_CMP_GE, (uint64_t)r + 1);
        const struct matrix_msg *msg = &in_slot[slot];
        const int64_t index = msg->index;
        const int dest = owner(index);
        if (dest == me) {
            multiply(msg->a, y_local);
            shmem_uint64_p(&acked[me], (uint64_t)r + 1, parent); /* the slot is free: let the parent refill it */
            if (inject && index == stream - 1) y_local[m / 2] += 1; /* fault injection: one wrong element */
            const uint64_t k = results_sent++;
            if (k >= SLOTS) shmem_uint64_wait_until(&res_acked, SHMEM_CMP_GE, k - SLOTS + 1);
            shmem_putmem_signal(res_slot[me][k % SLOTS], y_local, (size_t)m * sizeof(int32_t),
                                &res_sig[me][k % SLOTS], k + 1, SHMEM_SIGNAL_SET, collector);
        } else {
            send_matrix(next_hop(me, dest, md), msg); /* forwarded straight out of the input slot */
            shmem_uint64_p(&acked[me], (uint64_t)r + 1, parent);
        }
    }
}

static void emitter(enum mode md)
{
    for (int64_t i = 0; i < stream; ++i) {
        in_slot[0].index = i;
        generate(i, in_slot[0].a);
        send_matrix(next_hop(0, owner(i), md), &in_slot[0]);
    }
}

/* Results arrive in stream order: y_i is the (i / W)-th result of worker owner(i). */
static void collect_results(void)
{
    for (int64_t i = 0; i < stream; ++i) {
        const int w = owner(i);
        const uint64_t k = (uint64_t)(i / workers);
        const int slot = (int)(k % SLOTS);
        shmem_signal_wait_until(&res_sig[w][slot], SHMEM_CMP_GE, k + 1);
        memcpy(&results[i * m], res_slot[w][slot], (size_t)m * sizeof(int32_t));
        shmem_uint64_p(&res_acked, k + 1, w);
    }
}

/* Every element of every result against a serial recomputation. Returns the number of wrong elements. */
static long check_results(const char *mode_name)
{
    long wrong = 0;
    for (int64_t i = 0; i < stream; ++i) {
        generate(i, in_slot[0].a);
        multiply(in_slot[0].a, y_local);
        for (int r = 0; r < m; ++r)
            if (results[i * m + r] != y_local[r]) {
                if (wrong < 5)
                    printf("matvec %s: matrix %ld (worker PE %d) y[%d] = %ld, expected %ld\n", mode_name, (long)i,
                           owner(i), r, (long)results[i * m + r], (long)y_local[r]);
                ++wrong;
            }
    }
    return wrong;
}

static void reset_channels(void)
{
    memset(in_sig, 0, sizeof in_sig);
    memset(acked, 0, sizeof acked);
    memset(res_sig, 0, sizeof res_sig);
    res_acked = 0;
    memset(sent, 0, sizeof sent);
}

/* One stream in one distribution mode; returns the machine-wide cycles between the barriers. */
static uint64_t run(enum mode md, int inject)
{
    shmem_barrier_all(); /* the previous run is over everywhere (and its puts are complete) ... */
    reset_channels();
    shmem_barrier_all(); /* ... and every channel is empty before anybody starts */
    /* The stream starts when the emitter starts and ends when the collector has the last result. Both read the
     * machine-wide counter; reading both ends on one PE around barriers would add the emulator's scheduling
     * slack: the emitter may run a whole time slice of the stream before the collector wakes from the barrier. */
    if (me == 0) {
        stream_start = shmemx_cycles();
        emitter(md);
    } else if (me == collector) {
        collect_results();
        stream_end = shmemx_cycles();
    } else {
        worker(md, inject);
    }
    shmem_barrier_all();
    return me == collector ? stream_end - shmem_uint64_g(&stream_start, 0) : 0;
}

/* The cost of each stage alone on the emitter (the other PEs asleep in the barrier): the least of three tries,
 * since PEs leaving the barrier may still run a few instructions inside the first window. */
static void stage_costs(void)
{
    shmem_barrier_all();
    if (me == 0) {
        uint64_t gen = UINT64_MAX, mul = UINT64_MAX, put = UINT64_MAX;
        for (int t = 0; t < 3; ++t) {
            const uint64_t t0 = shmemx_cycles();
            generate(t, in_slot[0].a);
            const uint64_t t1 = shmemx_cycles();
            multiply(in_slot[0].a, y_local);
            const uint64_t t2 = shmemx_cycles();
            shmem_putmem(&in_slot[1], &in_slot[0], msg_bytes(), 1); /* PE 1's spare slot; no signal, reset later */
            const uint64_t t3 = shmemx_cycles();
            if (t1 - t0 < gen) gen = t1 - t0;
            if (t2 - t1 < mul) mul = t2 - t1;
            if (t3 - t2 < put) put = t3 - t2;
        }
        printf("matvec: M=%d stage costs alone: generate %lu, multiply %lu, put one matrix (%lu B) %lu cycles\n", m,
               (unsigned long)gen, (unsigned long)mul, (unsigned long)msg_bytes(), (unsigned long)put);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    npes = shmem_n_pes();
    me = shmem_my_pe();
    if (npes < 3) {
        if (me == 0)
            printf("matvec: needs at least 3 PEs (an emitter, a worker and a collector), got %d\n", npes);
        shmem_finalize();
        return 2;
    }
    m = argc > 1 ? atoi(argv[1]) : (MAX_M < 56 ? MAX_M : 56);
    stream = argc > 2 ? atoi(argv[2]) : 32;
    const char *mode_arg = argc > 3 ? argv[3] : "both";
    const int inject = argc > 4 && strcmp(argv[4], "inject") == 0;
    const int do_linear = !strcmp(mode_arg, "linear") || !strcmp(mode_arg, "both");
    const int do_tree = !strcmp(mode_arg, "tree") || !strcmp(mode_arg, "both");
    if (m < 1 || m > MAX_M || stream < 1 || stream > MAX_S || !(do_linear || do_tree) || npes > MAX_PES ||
        (argc > 4 && !inject)) {
        if (me == 0)
            printf("usage: matvec [M (1..%d, e.g. 56 112 168) [S (1..%d) [tree|linear|both [inject]]]] on 3..%d "
                   "PEs\n", MAX_M, MAX_S, MAX_PES);
        shmem_finalize();
        return 2;
    }
    workers = npes - 2;
    collector = npes - 1;
    make_x();
    stage_costs();

    const enum mode modes[2] = {LINEAR, TREE};
    const int wanted[2] = {do_linear, do_tree};
    const char *names[2] = {"linear", "tree"};
    int header_done = 0, status = 0;
    for (int k = 0; k < 2; ++k) {
        if (!wanted[k]) continue;
        const uint64_t cycles = run(modes[k], inject);
        if (me == collector) {
            const long wrong = check_results(names[k]);
            if (wrong) {
                printf("matvec %s: FAIL: %ld wrong elements in %d results of %d elements\n", names[k], wrong, stream,
                       m);
                status = 1;
            } else {
                printf("matvec %s: M=%d, %d workers, %d matrices: %lu cycles per matrix (%lu total); all %d results "
                       "checked\n", names[k], m, workers, stream, (unsigned long)(cycles / (uint64_t)stream),
                       (unsigned long)cycles, stream);
                if (!header_done) printf("csv:matvec:mode,m,workers,matrices,cycles_per_matrix\n");
                header_done = 1;
                printf("csv:matvec:%s,%d,%d,%d,%lu\n", names[k], m, workers, stream,
                       (unsigned long)(cycles / (uint64_t)stream));
            }
        }
    }
    shmem_barrier_all();
    if (status) shmem_global_exit(status);
    shmem_finalize();
    return 0;
}
