// The collectives of a group that spans the network (Group::span: a team with PEs that this PE reaches only
// through the port's network, port::has_network). The engine's own algorithms (coll_sweep.cpp, coll_gather.cpp)
// read and write the ranks' memory by remote_ptr; here every access to another rank is put_to, get_from or an
// AMO, each through the network where the rank is beyond reach:
//  - the barrier: dissemination, ceil(log2 n) rounds; a round's flag is a count that the partner raises by one
//    (an AMO: the network's, where the partner is beyond reach or the run's atomic domain is the network's) and its
//    owner lowers by one when it has seen it (an AMO of the same domain), so that the flags are 0 again between barriers (a
//    team's scratch serves the next team of its slot as it is) and a partner already in the next barrier (at most
//    one ahead) leaves a count the next barrier takes;
//  - a broadcast: the root puts its data into every other rank's dest, between two barriers;
//  - an all-gather: every rank puts its block into every rank's dest, between two barriers;
//  - an all-reduce (every reduction, a sweep with a combine): every rank reads every rank's contribution, a chunk of
//    the work area at a time, and combines them in rank order (so every rank's result is the same bit for bit).
// The alltoall and the scans are the engine's (coll_gather.cpp), whose accesses go through put_to and get_from.
// This file's functions are called only where the port has a network; elsewhere --gc-sections drops them.
#include "coll.hpp"

namespace shmem::detail {

namespace {

// Raises rank j's count of round k.
void raise_count(const Group &g, int j, int k)
{
    const int pe = g.world(j);
    long *f = &g.flags[flag_tree + k];
    if (amo_by_network(pe)) {
        network_post(port::AmoOp::add, pe, f, sizeof(long), 1);  // (the next barrier's quiet completes it)
    } else {
        __atomic_fetch_add(port::remote_ptr(f, pe), 1L, __ATOMIC_SEQ_CST);
        port::notify(pe);
    }
}

// Waits for this PE's count of round k, and takes one from it.
void take_count(const Group &g, int k)
{
    long *f = &g.flags[flag_tree + k];
    port::wait_until([f] { return __atomic_load_n(f, __ATOMIC_ACQUIRE) > 0; });
    if (amo_by_network(port::my_pe()))  // the network's atomic domain: the network raises the count, and lowers it
        network_amo(port::AmoOp::add, port::my_pe(), f, sizeof(long), uint64_t(-1), 0);
    else
        __atomic_fetch_sub(f, 1L, __ATOMIC_SEQ_CST);
}

// Rank j's m bytes at `local` (a symmetric object) into `to`: this PE's own by a local copy.
void read_rank(const Group &g, int j, void *to, const void *local, size_t m)
{
    if (j == g.rank)
        copy_local(to, local, m);
    else
        get_from(to, g.world(j), local, m);
}

}  // namespace

void net_barrier(const Group &g)
{
    port::quiet();  // this PE's puts (the network's too) are in place before any rank leaves the barrier
    const int n = g.size, r = g.rank;
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
        raise_count(g, r + d < n ? r + d : r + d - n, k);
        take_count(g, k);
    }
}

void net_sweep(const Group &g, int root, const Sweep &s)
{
    const size_t bytes = s.bytes;
    if (bytes == 0) return net_barrier(g);
    auto *const dest = static_cast<unsigned char *>(s.dest);
    const auto *const source = static_cast<const unsigned char *>(s.source);
    if (s.combine == nullptr) {  // a broadcast: the root's source into every other rank's dest
        net_barrier(g);          // every rank is done with its dest
        if (g.rank == root)
            for (int j = 0; j < g.size; ++j)
                if (j != root) put_to(g.world(j), dest, source, bytes);
        net_barrier(g);  // (its quiet completes the root's puts)
        return;
    }
    // A reduction: each rank's contribution is read where it is, in its source where that is symmetric and apart
    // from dest, else in its dest, into which it copies its source first; every rank decides alike (the arrays are
    // the same on every rank). Read from dest, a chunk of the result is written only after every rank has read it.
    const bool in_source = source != dest && is_symmetric(source, bytes);
    if (!in_source && source != dest) copy_local(dest, source, bytes);
    const unsigned char *const contribution = in_source ? source : dest;
    const size_t chunk = (g.work_bytes / 2) & ~((size_t(1) << s.elem_shift) - 1);
    unsigned char *const acc = g.work, *const in = g.work + chunk;
    net_barrier(g);  // every rank's contribution is in place
    for (size_t o = 0; o < bytes; o += chunk) {
        const size_t m = bytes - o < chunk ? bytes - o : chunk;
        read_rank(g, 0, acc, contribution + o, m);
        for (int j = 1; j < g.size; ++j) {
            read_rank(g, j, in, contribution + o, m);
            s.combine(acc, in, m);
        }
        if (!in_source) net_barrier(g);  // every rank has read this chunk of every dest
        copy_local(dest + o, acc, m);
    }
    net_barrier(g);  // no rank changes what another may still read
}

int net_allgather(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block)
{
    const int n = g.size, r = g.rank;
    auto at = [off, block](int j) { return off != nullptr ? off[j] : size_t(j) * block; };
    const size_t mine = at(r), bytes = at(r + 1) - mine;
    net_barrier(g);  // every rank is done with its dest
    for (int i = 0; i < n; ++i) {
        const int j = r + i < n ? r + i : r + i - n;  // from the right neighbour on, not all to one rank at once
        if (j == r)
            copy_local(dest + mine, source, bytes);
        else
            put_to(g.world(j), dest + mine, source, bytes);
    }
    net_barrier(g);  // every block is in place
    return 0;
}

}  // namespace shmem::detail
