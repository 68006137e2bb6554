// Channels (shmemx.h, docs/channels.md): single-producer single-consumer queues of 64-bit words with 1..8
// slots, and a receiver's fair selection among several of them. A libshmem extension, not OpenSHMEM.
//
// The design is the TILEPro "remote store" channel: each side waits only on words in its own memory, which the
// other side writes remotely, then wakes it (port::notify). In the receiver's copy of the channel: the slots'
// values and `posted`, the number of values the sender has stored (the K "full" flags in one word: slot
// (taken + j) mod K is full for j < posted - taken). In the sender's copy: `acked`, the number of values the
// receiver has taken. Both counts only move forward and each has one writer, so neither side ever clears a flag
// the other one writes, and no read-modify-write crosses the network: a transfer is plain stores and fences.
//
// Why no wake-up is lost. A side that finds nothing to do sleeps in port::wait_until: it marks itself
// sleeping, clears its wake bit, fences, and only then rechecks its local word. The other side stores the
// value, fences, stores the count, then port::notify: a fence and a read of the sleeping mark, raising the wake
// bit if it is set. If the recheck missed the count, the count's store is ordered after the recheck, so the
// notifier's read of the mark (after its own fence) sees it set and raises the bit after the waiter cleared it:
// wfi falls through and the waiter looks again. (The port's 1 ms timer is only a backstop.)
//
// On a port with a message network (port::has_msg_channel: TILE's UDN) the value travels as one message instead
// (port::msg_send) and the receiver's port hands it to receive_message below, which stores it into the same slots
// and counts it in `posted` itself; the receiver polls the network before it looks at `posted`. The credits and
// `acked` are as above. Which channels do so is the receiver's choice at initialisation (message_words_used).
//
// On a port with a network (port::has_network), a channel whose endpoints are on different nodes keeps no
// pointer to the other copy (peer is null): the value goes by a network put, then after a network fence the count
// by a posted network add of 1 (an AMO: `posted` and `acked` each have one writer, and an add is atomic where a
// put's bytes need not be); the receiver hands a slot back by an add of 1 to `acked`. The network's arrival wakes
// a waiting side (no notify, no ack_wanted), and a side that only polls (has_value, has_credit, the sets' scans)
// moves the network along itself (network_progress).
#include "internal.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
namespace {

constexpr int max_slots = SHMEMX_CHANNEL_MAX_SLOTS;
constexpr uint32_t channel_magic = 0x6368616eu;  // "chan": written by shmemx_channel_init
constexpr uint32_t set_magic = 0x63736574u;      // "cset": written by shmemx_channel_set_init

// The library's view of shmemx_channel_t. Grouped by who writes which copy, so that on a cached machine whose
// lines are homed at their owner (TILE) the words a remote side stores into stay apart from the words the
// owner keeps writing: first the receiver-side words the sender stores, then the sender-side words the receiver
// reads and stores, then each side's own words.
//
// The counts are 32-bit words, the one size every port stores and loads in one piece (a 64-bit count on a
// 32-bit core could be seen half-updated). They wrap modulo 2^32, which is harmless: the receiver only asks
// whether posted != taken, the sender only computes sent - acked, and neither difference exceeds `slots`.
// The value needs no such care: it is read only after the count that announces it.
struct Channel {
    // Receiver's copy, stored by the sender. `posted` sits next to value[0], so the one-slot channel's value
    // and its flag are adjacent.
    uint32_t posted;            // values stored so far
    uint32_t fill_index;        // message mode only: where the receiver stores the next value that arrives
    uint64_t value[max_slots];  // value n lives in value[n mod slots]
    // Sender's copy: `acked` is stored by the receiver; `ack_wanted` is read by the receiver, 1 while the
    // sender waits for a slot, so that handing one back wakes the sender only when it waits for that (a
    // sender asleep on something else is not disturbed).
    uint32_t acked;             // values taken so far
    uint32_t ack_wanted;
    // Private to each endpoint, set by shmemx_channel_init: the other endpoint's copy of the channel (the
    // receiver's on the sender, the sender's on the receiver, its own on a PE that is both), so no transfer
    // recomputes a remote address. Partitions do not move during a run. Null: the other endpoint is reached
    // through the network (port::has_network only).
    Channel *peer;
    uint32_t sent;              // sender: values sent so far
    uint32_t taken;             // receiver: values taken so far
    uint32_t send_index;        // sender: sent mod slots
    uint32_t slots;
    uint32_t credit;            // sender: slots known to be free, slots - (sent - acked) at the last read of acked
    uint32_t recv_index;        // receiver: taken mod slots
    int32_t sender;
    int32_t receiver;
    uint32_t magic;
    // How the values travel (port::has_msg_channel only; always mode_memory otherwise): the receiver chooses at
    // its initialisation; the sender reads the receiver's choice at its first send.
    uint32_t mode;
};
static_assert(sizeof(Channel) <= sizeof(shmemx_channel_t), "shmemx_channel_t is too small for the channel");
static_assert(alignof(Channel) <= alignof(shmemx_channel_t), "shmemx_channel_t is less aligned than the channel");

// The receiver's selection state (shmemx_channel_set_t); private to the receiver, so plain local fields.
struct Set {
    shmemx_channel_t *chans;  // the caller's array
    int32_t n;
    int32_t next;    // index where the next scan starts: one after the channel served last
    int32_t others;  // channels of the set whose sender is another PE (0: waiting could never end)
    uint32_t magic;
};
static_assert(sizeof(Set) <= sizeof(shmemx_channel_set_t), "shmemx_channel_set_t is too small for the set");

inline Channel *chan(shmemx_channel_t *ch) { return reinterpret_cast<Channel *>(ch); }

enum : uint32_t { mode_unset = 0, mode_memory = 1, mode_message = 2 };

// The other endpoint is reached through the network (a constant false without one). Such a channel's values never
// go as messages (a message network is the node's).
inline bool across_network(const Channel *c)
{
    if constexpr (port::has_network) return c->peer == nullptr;
    return false;
}

inline uint32_t load_acquire(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
inline void store_relaxed(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

// ---- message channels (port::has_msg_channel) ----------------------------------------------------------------
//
// The port's network queue into a PE must never fill: a full queue stalls its senders inside their sends, and two
// PEs stalled sending to each other would never receive again. The channels' credits bound the messages in flight
// on each channel to its slots, so the receiver lets a channel use messages only while the sum over its message
// channels of slots * port::msg_words stays within port::msg_budget; the others use shared memory. A channel's
// share is given back when its receiver's copy is initialised again.
unsigned message_words_used;

[[noreturn]] void fail_stray_message(const void *object, const Channel *c)
{
    Usage u("shmemx_channel (an arriving message)");
    u.m().s("a channel message arrived for ").p(object);
    if (c->magic != channel_magic)
        u.m().s(", which is not an initialised channel on this PE");
    else if (c->receiver != port::my_pe())
        u.m().s(", a channel received on by PE ").i(c->receiver);
    else if (c->mode != mode_message)
        u.m().s(", a channel this PE receives over shared memory");
    else
        u.m().s(", which has no free slot (").i(int(c->slots)).s(" are full)");
    u.m().s("; expected shmemx_channel_init on the receiver, then a synchronization, before the sender's first send, ")
        .s("and no second initialisation while values are in flight");
    u.fail();
}

// The port's handler: a value for the channel at `object` arrived. It goes into the next slot, then `posted`
// counts it, as the sender's stores would have done over memory.
bool receive_message(void *object, uint64_t value)
{
    Channel *c = static_cast<Channel *>(object);
    if (c->magic != channel_magic || c->receiver != port::my_pe() || c->mode != mode_message ||
        c->posted - c->taken >= c->slots)
        fail_stray_message(object, c);
    const uint32_t i = c->fill_index;
    c->value[i] = value;
    c->fill_index = i + 1 == c->slots ? 0 : i + 1;
    __atomic_store_n(&c->posted, c->posted + 1, __ATOMIC_RELEASE);
    return true;
}

// shmemx_channel_init's part: the receiver chooses how its channel's values travel; the sender learns it later.
template <bool Msg = port::has_msg_channel>
void choose_mode(Channel *c, const Channel *old)
{
    if constexpr (Msg) {
        const int me = port::my_pe();
        if (old->magic == channel_magic && old->mode == mode_message && old->receiver == me)
            message_words_used -= old->slots * port::msg_words;
        if (c->receiver != me) {
            c->mode = mode_unset;
            return;
        }
        const unsigned words = c->slots * port::msg_words;
        if (c->sender != me && !across_network(c) && port::msg_fits(c) &&
            message_words_used + words <= port::msg_budget) {
            port::set_msg_handler(receive_message);
            message_words_used += words;
            c->mode = mode_message;
            return;
        }
    } else {
        (void)old;
    }
    c->mode = mode_memory;
}

[[noreturn]] void fail_receiver_unset(const void *ch, const Channel *c)
{
    Usage u("shmemx_channel_send");
    u.m().s("ch = ").p(ch).s(": the receiver's copy (PE ").i(c->receiver).s(") is not initialised; expected ")
        .s("shmemx_channel_init on both endpoints and a synchronization before the first send");
    u.fail();
}

// Sender: the first send after an initialisation reads the receiver's choice (one remote load, once).
template <bool Msg = port::has_msg_channel>
inline bool sends_messages(const void *ch, Channel *c)
{
    if constexpr (Msg) {
        if (__builtin_expect(c->mode == mode_unset, 0)) {
            const uint32_t m = __atomic_load_n(&c->peer->mode, __ATOMIC_RELAXED);
            if (m != mode_memory && m != mode_message) fail_receiver_unset(ch, c);
            c->mode = m;
        }
        return c->mode == mode_message;
    } else {
        (void)ch;
        (void)c;
        return false;
    }
}

// ---- checks -------------------------------------------------------------------------------------------------

enum class Role { sender, receiver };

[[noreturn]] void fail_endpoint(const char *routine, const void *ch, const Channel *c, Role role)
{
    Usage u(routine);
    if (c->magic != channel_magic) {
        u.m().s("ch = ").p(ch).s(" is not an initialised channel on this PE; expected shmemx_channel_init on ")
            .s("both endpoints (and a synchronization) first");
    } else if (role == Role::sender) {
        u.m().s("ch = ").p(ch).s(" is sent on by PE ").i(c->sender).s(", not by this PE; only the channel's sender ")
            .s("may send (channel PE ").i(c->sender).s(" -> PE ").i(c->receiver).s(")");
    } else {
        u.m().s("ch = ").p(ch).s(" is received on by PE ").i(c->receiver).s(", not by this PE; only the channel's ")
            .s("receiver may receive (channel PE ").i(c->sender).s(" -> PE ").i(c->receiver).s(")");
    }
    u.fail();
}

// The calling PE is the channel's sender (receiver) and the channel is initialised: a load and a compare of
// each on the fast path, the report out of line. No-op without SHMEM_CHECKS.
inline void check_endpoint(const char *routine, const void *ch, const Channel *c, Role role)
{
    if constexpr (checks) {
        const int pe = role == Role::sender ? c->sender : c->receiver;
        if (__builtin_expect(c->magic != channel_magic || pe != port::my_pe(), 0)) fail_endpoint(routine, ch, c, role);
    }
}

[[noreturn]] void fail_self_deadlock(const char *routine, const void *ch, const char *state, const char *what)
{
    Usage u(routine);
    u.m().s("ch = ").p(ch).s(" is ").s(state).s(" and this PE is both its sender and its receiver: the ").s(what)
        .s(" would wait forever");
    u.fail();
}

// ---- the two halves of a transfer -------------------------------------------------------------------------

// Sender: is a slot free? Reads the sender-side `acked` only when the credit from the last read is used up.
inline bool has_credit(Channel *c)
{
    if (c->credit != 0) return true;
    if (across_network(c)) network_progress();
    c->credit = c->slots - (c->sent - load_acquire(&c->acked));
    return c->credit != 0;
}

// Sender, with a free slot: value, fence, count, wake (or one message, which is all three).
inline void post(const void *ch, Channel *c, uint64_t value)
{
    if (across_network(c)) {
        const uint32_t i = c->send_index;
        network_put(c->receiver, &c->value[i], &value, sizeof value);
        network_fence();  // the value before the count
        network_post(port::AmoOp::add, c->receiver, &c->posted, sizeof c->posted, 1);
        ++c->sent;
        c->send_index = i + 1 == c->slots ? 0 : i + 1;
        --c->credit;
        return;
    }
    // Without a message network msg_send is declared and never defined: not even an unoptimized build names it.
    if constexpr (port::has_msg_channel) {
        if (sends_messages(ch, c)) {
            port::msg_send(c->receiver, c->peer, value);
            ++c->sent;
            --c->credit;
            return;
        }
    }
    Channel *r = c->peer;
    const uint32_t i = c->send_index;
    r->value[i] = value;  // a plain store (two on a 32-bit core): nobody reads it before the count below
    // The value before the count: a receiver that sees the count finds the value in place.
    port::fence();
    store_relaxed(&r->posted, ++c->sent);
    c->send_index = i + 1 == c->slots ? 0 : i + 1;
    --c->credit;
    port::notify(c->receiver);
}

// Sender, without a free slot: sleep until the receiver hands one back. `ack_wanted` is raised before the
// wait's first look at `acked`, with a fence between: the receiver stores `acked`, fences, then reads
// `ack_wanted`, so either the sender's look finds the new count or the receiver finds the flag and notifies
// (and port::notify/wait_until make sure that wake-up is not lost either).
void wait_for_credit(Channel *c)
{
    store_relaxed(&c->ack_wanted, 1);
    port::fence();
    port::wait_until([c] { return has_credit(c); });
    store_relaxed(&c->ack_wanted, 0);  // a receiver that still reads 1 only wakes us once for nothing
}

// Receiver: is a value there? One local load and a compare (a message channel first sorts in what the network
// holds: its values are counted when they arrive).
template <bool Msg = port::has_msg_channel>
inline bool has_value(const Channel *c)
{
    if constexpr (Msg)
        if (c->mode == mode_message) port::msg_poll();
    if (across_network(c)) network_progress();
    return load_acquire(&c->posted) != c->taken;
}

// Receiver, with a value present: take it, give the slot back, wake the sender if it waits for one.
inline uint64_t take(Channel *c)
{
    const uint32_t i = c->recv_index;
    const uint64_t value = c->value[i];  // ordered after the count by the acquire that found it
    c->recv_index = i + 1 == c->slots ? 0 : i + 1;
    const uint32_t taken = ++c->taken;
    Channel *s = c->peer;
    // The value is read before the slot is handed back: after this store the sender may overwrite it.
    port::fence();
    if (across_network(c)) {
        network_post(port::AmoOp::add, c->sender, &c->acked, sizeof c->acked, 1);
        return value;
    }
    store_relaxed(&s->acked, taken);
    // The count before the look at the flag (the other half of wait_for_credit's argument).
    port::fence();
    if (__atomic_load_n(&s->ack_wanted, __ATOMIC_RELAXED) != 0) port::notify(c->sender);
    return value;
}

// Receiver: the index of the first channel in chans[from, to) with a value, or -1. This is the whole cost of an
// idle sender: two local loads and a compare per channel and scan (relaxed: the caller fences once on a hit).
inline int scan(const Set *s, int from, int to)
{
    shmemx_channel_t *const base = s->chans;
    for (shmemx_channel_t *p = base + from, *end = base + to; p != end; ++p) {
        const Channel *c = chan(p);
        if (__atomic_load_n(&c->posted, __ATOMIC_RELAXED) != c->taken) return int(p - base);
    }
    return -1;
}

// Receiver: the first channel of the set with a value, round robin from s->next (the one after the channel
// served last), so a channel that has a value waits for at most n - 1 others; -1 if none has.
template <bool Msg = port::has_msg_channel>
inline int ready_index(const Set *s)
{
    if constexpr (Msg) port::msg_poll();  // message channels count their values as they are sorted in
    network_progress();  // (channels across the network count theirs as they arrive)
    int i = scan(s, s->next, s->n);
    if (i < 0) i = scan(s, 0, s->next);
    // The value is read after the count that announced it (what load_acquire does in has_value).
    if (i >= 0) __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return i;
}

inline uint64_t take_at(Set *s, int i, int *index)
{
    s->next = i + 1 == s->n ? 0 : i + 1;
    if (index != nullptr) *index = i;
    return take(chan(&s->chans[i]));
}

[[noreturn]] void fail_set_self(const char *routine, const void *set)
{
    Usage u(routine);
    u.m().s("set = ").p(set).s(" is empty and this PE is the sender of each of its channels: the receive would ")
        .s("wait forever");
    u.fail();
}

[[noreturn]] void fail_bad_set(const char *routine, const void *set)
{
    Usage u(routine);
    u.m().s("set = ").p(set).s(" is not an initialised channel set; expected shmemx_channel_set_init first");
    u.fail();
}

inline Set *checked_set(const char *routine, shmemx_channel_set_t *set)
{
    check_init(routine);
    Set *s = reinterpret_cast<Set *>(set);
    if constexpr (checks)
        if (__builtin_expect(set == nullptr || s->magic != set_magic, 0)) fail_bad_set(routine, set);
    return s;
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

// Local: writes this PE's copy only. The PEs and the slot count are checked in every build (either would turn
// every later transfer into a stray store, and the call is on no fast path); the address with SHMEM_CHECKS.
void shmemx_channel_init(shmemx_channel_t *ch, int sender, int receiver, int slots)
{
    const char *routine = "shmemx_channel_init";
    check_init(routine);
    check_symmetric(routine, "ch", ch, sizeof *ch);
    check_aligned(routine, "ch", ch, alignof(shmemx_channel_t));
    const int n = port::n_pes();
    const char *bad = unsigned(sender) >= unsigned(n) ? "sender" : unsigned(receiver) >= unsigned(n) ? "receiver"
                                                                                                      : nullptr;
    if (bad != nullptr) {
        Usage u(routine);
        u.m().s(bad).s(" = ").i(bad[0] == 's' ? sender : receiver).s(" is not a PE of this run; expected 0 <= ")
            .s(bad).s(" < ").i(n);
        u.fail();
    }
    if (slots < 1 || slots > max_slots) {
        Usage u(routine);
        u.m().s("slots = ").i(slots).s(" is out of range; expected 1 <= slots <= SHMEMX_CHANNEL_MAX_SLOTS (")
            .i(max_slots).s(")");
        u.fail();
    }
    Channel *c = chan(ch);
    const Channel old = *c;
    *c = Channel{};
    c->credit = uint32_t(slots);
    c->slots = uint32_t(slots);
    c->sender = sender;
    c->receiver = receiver;
    const int other = port::my_pe() == receiver ? sender : receiver;
    c->peer = by_network(other) ? nullptr : port::remote_ptr(c, other);
    choose_mode(c, &old);
    c->magic = channel_magic;
}

void shmemx_channel_send(shmemx_channel_t *ch, uint64_t value)
{
    const char *routine = "shmemx_channel_send";
    check_init(routine);
    Channel *c = chan(ch);
    check_endpoint(routine, ch, c, Role::sender);
    if (__builtin_expect(!has_credit(c), 0)) {
        if (c->receiver == c->sender) fail_self_deadlock(routine, ch, "full", "send");
        wait_for_credit(c);
    }
    post(ch, c, value);
}

int shmemx_channel_try_send(shmemx_channel_t *ch, uint64_t value)
{
    const char *routine = "shmemx_channel_try_send";
    check_init(routine);
    Channel *c = chan(ch);
    check_endpoint(routine, ch, c, Role::sender);
    if (!has_credit(c)) return 0;
    post(ch, c, value);
    return 1;
}

uint64_t shmemx_channel_recv(shmemx_channel_t *ch)
{
    const char *routine = "shmemx_channel_recv";
    check_init(routine);
    Channel *c = chan(ch);
    check_endpoint(routine, ch, c, Role::receiver);
    if (__builtin_expect(!has_value(c), 0)) {
        if (c->receiver == c->sender) fail_self_deadlock(routine, ch, "empty", "receive");
        port::wait_until([c] { return has_value(c); });
    }
    return take(c);
}

int shmemx_channel_try_recv(shmemx_channel_t *ch, uint64_t *value)
{
    const char *routine = "shmemx_channel_try_recv";
    check_init(routine);
    Channel *c = chan(ch);
    check_endpoint(routine, ch, c, Role::receiver);
    if (!has_value(c)) return 0;
    const uint64_t v = take(c);
    if (value != nullptr) *value = v;
    return 1;
}

void shmemx_channel_set_init(shmemx_channel_set_t *set, shmemx_channel_t *chans, int nchans)
{
    const char *routine = "shmemx_channel_set_init";
    check_init(routine);
    if (nchans < 1) {
        Usage u(routine);
        u.m().s("nchans = ").i(nchans).s("; expected nchans >= 1");
        u.fail();
    }
    check_symmetric(routine, "chans", chans, bytes_of(routine, "nchans", size_t(nchans), sizeof *chans));
    const int me = port::my_pe();
    int others = 0;
    for (int i = 0; i < nchans; ++i) {
        const Channel *c = chan(&chans[i]);
        // Checked in every build, once per set: a channel the caller does not receive on would take values
        // from under its real receiver.
        if (c->magic != channel_magic || c->receiver != me) {
            Usage u(routine);
            u.m().s("chans[").i(i).s("] = ").p(&chans[i]);
            if (c->magic != channel_magic)
                u.m().s(" is not an initialised channel on this PE; expected shmemx_channel_init first");
            else
                u.m().s(" is received on by PE ").i(c->receiver).s(", not by this PE; every channel of a set must ")
                    .s("have the calling PE as its receiver");
            u.fail();
        }
        others += c->sender != me;
    }
    Set *s = reinterpret_cast<Set *>(set);
    *s = Set{chans, nchans, 0, others, set_magic};
}

uint64_t shmemx_channel_recv_any(shmemx_channel_set_t *set, int *index)
{
    const char *routine = "shmemx_channel_recv_any";
    Set *s = checked_set(routine, set);
    int i;
    if (__builtin_expect(s->others == 0, 0)) {
        // Only this PE sends on the set's channels: an empty set would stay empty.
        if ((i = ready_index(s)) < 0) fail_set_self(routine, set);
    } else {
        port::wait_until([s, &i] { return (i = ready_index(s)) >= 0; });  // looks once before it sleeps
    }
    return take_at(s, i, index);
}

int shmemx_channel_try_recv_any(shmemx_channel_set_t *set, uint64_t *value, int *index)
{
    Set *s = checked_set("shmemx_channel_try_recv_any", set);
    const int i = ready_index(s);
    if (i < 0) return 0;
    const uint64_t v = take_at(s, i, index);
    if (value != nullptr) *value = v;
    return 1;
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_X_CHANNEL)
