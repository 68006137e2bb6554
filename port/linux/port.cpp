// The out-of-line part of the linux port: the barrier, the console, ending a run.
#include <stdio.h>

#include "message.hpp"
#include "pmix.hpp"
#include "port.hpp"

namespace shmem::port {

Geometry geometry;
uint64_t yield_budget_ns = 100000;  // (shmem_port.hpp, poll) where it starts: a tenth of a millisecond
uint32_t sleeping;
uint32_t wake_seq;

namespace {

// The WAND-style barrier's words, used in PE 0's memory only: one 64-bit word, the generation in its high half and
// the arrivals of the current one in its low half, so that an arrival learns both with its one atomic add, and the
// last one resets the count and advances the generation with one store. The sleepers' count is on a line of its own
// (only a PE about to sleep touches it).
struct alignas(64) Wand {
    uint64_t word;
    alignas(64) uint32_t sleepers;  // PEs in (or about to be in) futex_wait on the generation
} wand;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the generation is the high half of the word, at +4");

void write_all(int fd, const char *buf, size_t n)
{
    while (n != 0) {
        const ssize_t w = write(fd, buf, n);
        if (w <= 0) return;  // oshrun is gone: nobody to tell
        buf += w;
        n -= size_t(w);
    }
}

}  // namespace

// Each PE arrives on the word in PE 0's memory; the last one resets the count and advances the generation. A waiter
// polls the generation for a while where it has a CPU of its own, then sleeps on it in the kernel (a futex on the
// word's high half); the last arriver wakes all of them with one futex_wake, and only when one sleeps (a count, not
// a flag: a PE already in the next barrier may be counted too, which costs a spurious wake-up at most, never a lost
// one). Two PEs: three cache-line transfers (two arrivals, the waiter's reread), no separate read of the generation.
namespace {
struct GenerationWait {
    const uint32_t *generation;
    uint32_t gen;
};
bool generation_moved(const void *arg)
{
    const auto *w = static_cast<const GenerationWait *>(arg);
    return __atomic_load_n(w->generation, __ATOMIC_ACQUIRE) != w->gen;
}
}  // namespace

namespace {
// hw_barrier in a run across nodes: each node's PEs arrive on the word in its first PE's memory (the leader's);
// the leader waits for all of them, does the barrier among the nodes' leaders through the network
// (net_leaders_barrier), then resets the count, advances the generation and wakes the node's PEs. Every PE first
// completes its puts through the network (the core calls no quiet before a barrier whose first access is a fence,
// hw_barrier_fences). The waits are the port's waits across nodes (they progress the network: another node's
// flush may wait for this PE's answer), woken by a notify; a PE of the node that ended is seen and reported as in
// the run on one node.
struct ArrivalWait {
    const uint64_t *word;
    uint32_t all;
};
bool all_arrived(const void *arg)
{
    const auto *w = static_cast<const ArrivalWait *>(arg);
    return uint32_t(__atomic_load_n(w->word, __ATOMIC_ACQUIRE)) == w->all;
}
template <class Arg>
void node_wait(bool (*done)(const void *), const Arg &arg)
{
    wait_until([done, &arg] { return done(&arg) || __atomic_load_n(port::peer_ended_word(), __ATOMIC_RELAXED) != 0; });
    if (!done(&arg)) detail::world_wait_ended(done, &arg);
}
[[gnu::noinline]] void node_barrier()
{
    net_flush();
    const int first = geometry.node_first;
    Wand *w = remote_ptr(&wand, first);
    const uint64_t before = __atomic_fetch_add(&w->word, 1u, __ATOMIC_ACQ_REL);
    const uint32_t gen = uint32_t(before >> 32), n = uint32_t(geometry.node_npes);
    uint32_t *generation = reinterpret_cast<uint32_t *>(&w->word) + 1;
    if (geometry.pe == first) {
        node_wait(all_arrived, ArrivalWait{&w->word, n});
        net_leaders_barrier();
        __atomic_store_n(&w->word, uint64_t(gen + 1) << 32, __ATOMIC_SEQ_CST);
        for (int pe = first + 1; pe < first + int(n); ++pe) notify(pe);
        return;
    }
    if (uint32_t(before) == n - 1) notify(first);  // the last arrival wakes the leader
    node_wait(generation_moved, GenerationWait{generation, gen});
}
}  // namespace

void hw_barrier()
{
    if (__builtin_expect(geometry.networked, 0)) return node_barrier();
    const uint32_t n = uint32_t(geometry.npes);
    Wand *w = remote_ptr(&wand, 0);
    const uint64_t before = __atomic_fetch_add(&w->word, 1u, __ATOMIC_ACQ_REL);
    const uint32_t gen = uint32_t(before >> 32);
    uint32_t *generation = reinterpret_cast<uint32_t *>(&w->word) + 1;
    if (uint32_t(before) == n - 1) {
        __atomic_store_n(&w->word, uint64_t(gen + 1) << 32, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&w->sleepers, __ATOMIC_SEQ_CST) != 0) futex(generation, FUTEX_WAKE, INT_MAX, nullptr);
        return;
    }
    if (poll([generation, gen] { return __atomic_load_n(generation, __ATOMIC_ACQUIRE) != gen; })) return;
    __atomic_add_fetch(&w->sleepers, 1u, __ATOMIC_SEQ_CST);
    const uint64_t asleep = geometry.yields != 0 ? now_ns() : 0;
    // A PE's end (shmem/src/ended.cpp) wakes nobody here: the sleep's backstop makes it seen within a tenth of a
    // second (a wait that lasts is woken ten times a second, not a thousand as wait_until's).
    static const timespec end_backstop = {0, 100000000};
    while (__atomic_load_n(generation, __ATOMIC_SEQ_CST) == gen) {
        if (__builtin_expect(__atomic_load_n(port::peer_ended_word(), __ATOMIC_RELAXED) != 0, 0)) {
            const GenerationWait gw{generation, gen};
            detail::world_wait_ended(generation_moved, &gw);
            break;
        }
        futex(generation, FUTEX_WAIT, gen, &end_backstop);
    }
    __atomic_sub_fetch(&w->sleepers, 1u, __ATOMIC_RELAXED);
    if (geometry.yields != 0) adapt_yield_budget(now_ns() - asleep);
}

void console_write(char kind, const char *buf, size_t n)
{
    write_all(kind == SHMEM_CONSOLE_STDERR ? 2 : 1, buf, n);
}

void flush_console()
{
    fflush(stdout);
    fflush(stderr);
}


// The exit word: (PE + 1) << 8 | status, set by the first PE that ends the run; oshrun reads it when that PE's
// process has ended, stops the others and ends with the status.
void end_run(int status)
{
    const uint32_t code = (status > 0 && status < 256) ? uint32_t(status) : (status == 0 ? 0u : 255u);
    flush_console();
    if (geometry.exit_word != nullptr) {
        uint32_t expected = 0;
        __atomic_compare_exchange_n(geometry.exit_word, &expected, (uint32_t(geometry.pe) + 1) << 8 | code, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
    }
    if (geometry.pmix) pmix_abort(int(code));  // the launcher ends the job's other processes
    _exit(int(code));
}

void end_run_early(int status) { _exit(status > 0 && status < 256 ? status : 255); }

void finish(int status)
{
    if (status != 0) end_run(status);
    flush_console();
    _exit(0);
}

#if SHMEM_LINUX_MSG_CHANNEL
// ---- the emulated message network (SHMEM_LINUX_MSG_CHANNEL) -------------------------------------------------
//
// Each PE's queue is a ring of msg_budget words in its symmetric memory, written by any PE under the ring's lock and
// read by its owner. A message is two words: the object's offset from the start of the receiver's symmetric memory
// and the value. As on TILE the core keeps what is in flight to a PE within msg_budget words, so a full ring is a
// bug of the core's accounting: reported, never waited for. A send wakes the receiver if it sleeps; the receiver
// takes its messages in msg_poll (which the channels call before they look), not in every wait as TILE does.
namespace {
struct MsgQueue {
    uint32_t lock;
    uint32_t head;  // words written (by the senders)
    uint32_t tail;  // words taken (by the owner)
    uint64_t words[msg_budget];
} msg_queue;
bool (*msg_handler)(void *, uint64_t);

void lock_queue(MsgQueue *q)
{
    while (test_and_set(&q->lock))
        while (__atomic_load_n(&q->lock, __ATOMIC_RELAXED) != 0) cpu_relax();
}
}  // namespace

bool msg_fits(const void *) { return true; }

void set_msg_handler(bool (*handler)(void *, uint64_t)) { msg_handler = handler; }

void msg_send(int pe, const void *object, uint64_t value)
{
    fence();  // what this PE stored before is visible once the receiver has the message
    MsgQueue *q = remote_ptr(&msg_queue, pe);
    const uintptr_t offset = reinterpret_cast<uintptr_t>(object) - reinterpret_cast<uintptr_t>(remote_ptr(
                                                                        reinterpret_cast<void *>(geometry.static_lo), pe));
    lock_queue(q);
    if (q->head - q->tail + msg_words > msg_budget) {
        detail::Message()
            .s("libshmem: PE ").u(uint64_t(geometry.pe)).s(": the message queue of PE ").u(uint64_t(pe))
            .s(" is full (").u(msg_budget).s(" words): the channels' budget was exceeded")
            .write();
        end_run(70);
    }
    q->words[q->head % msg_budget] = offset;
    q->words[(q->head + 1) % msg_budget] = value;
    __atomic_store_n(&q->head, q->head + msg_words, __ATOMIC_RELEASE);
    clear(&q->lock);
    fence();
    wake_if_sleeping(pe);
}

void msg_poll()
{
    MsgQueue *q = &msg_queue;
    if (__atomic_load_n(&q->head, __ATOMIC_ACQUIRE) == q->tail) return;
    lock_queue(q);
    const uint32_t head = q->head;
    uint64_t taken[msg_budget];
    uint32_t n = 0;
    for (uint32_t t = q->tail; t != head; ++t) taken[n++] = q->words[t % msg_budget];
    __atomic_store_n(&q->tail, head, __ATOMIC_RELEASE);
    clear(&q->lock);
    for (uint32_t i = 0; i < n; i += msg_words) {
        void *object = reinterpret_cast<void *>(geometry.static_lo + uintptr_t(taken[i]));
        if (msg_handler == nullptr || !msg_handler(object, taken[i + 1])) {
            detail::Message()
                .s("libshmem: PE ").u(uint64_t(geometry.pe)).s(": a message for ").x(uintptr_t(object))
                .s(" arrived, and no channel of this PE expects it")
                .write();
            end_run(70);
        }
    }
}
#endif

}  // namespace shmem::port
