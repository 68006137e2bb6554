// Library setup, exit and query routines.
#include "team.hpp"

namespace shmem::detail {
State state;
Init init_state;
}

// The default context: in use from the start and never destroyed. Its team, SHMEM_TEAM_WORLD, is filled in by
// team.cpp, in the programs that link it (the only code that asks a context for its team is there); a program
// that only puts and gets does not link the teams for it.
shmem_ctx_s shmemi_ctx_default = {nullptr, 0, 1};

namespace shmem::detail {
// The objects of created contexts (in_use == 0: free). Here rather than in team.cpp for the same reason: code
// that only looks at a context (its DMA channel, say) must not pull in the teams and their set-up.
shmem_ctx_s ctx_objects[max_contexts];
}  // namespace shmem::detail

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
void fail_across_network(const char *routine, const char *what, int pe)
{
    Usage u(routine);
    u.m().s(what).s(" would involve PE ").i(pe).s(", which is on another node; this libshmem keeps locks and channels ")
        .s("within one node (runs on one node); across nodes it runs RMA, AMOs, signals, barriers, teams and ")
        .s("collectives (docs/multinode.md)");
    u.fail();
}
}  // namespace shmem::detail

extern "C" {

void shmem_init(void)
{
    // Nothing to set up here: the symmetric heap (alloc.cpp) and the teams (team.cpp) set themselves up before
    // main, in the programs that use them, and set themselves up again in their release (see Init) for a later
    // shmem_init; the port's geometry is there before any constructor runs.
    if (port::near(init_state).count++ == 0) {  // the outermost call (1.6: there may be more)
        if constexpr (port::has_environment) read_environment();  // SHMEM_VERSION, SHMEM_INFO, SHMEM_DEBUG
    }
    if constexpr (port::ends_observed) {
        __atomic_store_n(&shmemi_end_state, end_phase_initialized, __ATOMIC_RELAXED);
        if constexpr (checks) current_routine = "shmem_init";
    }
    sync_all();
}

// 1.6: every call is a shmem_barrier_all (for the last one, the implicit barrier: all PEs have entered it and
// their communication is complete before it returns); the last one also releases the library's resources and
// leaves the library uninitialized. The release only marks this PE's own heap blocks, team slots and objects free
// (memory stays where it is, and no other PE reads that bookkeeping), so it need not wait for the barrier; without
// the checks it comes first and the barrier is the tail call, as it was before 1.6 (the budget programs of
// bench/footprint keep their size). With them, shmem_barrier_all must come while this call still counts.
void shmem_finalize(void)
{
    check_init("shmem_finalize");
    // The last one: the PEs that end after it know that this one waits for nothing they can end (ended.cpp).
    Init &state = port::near(init_state);
    const bool last = state.count == 1;
    if constexpr (port::ends_observed)
        if (last) __atomic_store_n(&shmemi_end_state, end_phase_finalizing, __ATOMIC_SEQ_CST);
    if constexpr (checks) pshmem_barrier_all();
    if (--state.count == 0 && state.release != nullptr) state.release();
    if constexpr (!checks) pshmem_barrier_all();
    if constexpr (port::ends_observed)
        if (last) __atomic_store_n(&shmemi_end_state, end_phase_finalized, __ATOMIC_RELAXED);
}

void shmem_query_initialized(int *initialized) { *initialized = init_state.count > 0; }

int shmem_my_pe(void) { return port::my_pe(); }

uint64_t shmemx_cycles(void) { return port::cycles(); }
int shmem_n_pes(void) { return port::n_pes(); }

void shmem_global_exit(int status)
{
    port::quiet();
    port::flush_console();  // this PE's unfinished line is output too
    port::end_run(status);
}

int shmem_pe_accessible(int pe) { return pe >= 0 && pe < port::n_pes(); }

int shmem_addr_accessible(const void *addr, int pe)
{
    return pshmem_pe_accessible(pe) && is_symmetric(addr, 1);
}

void *shmem_ptr(const void *dest, int pe)
{
    check_init("shmem_ptr");
    check_pe("shmem_ptr", pe);
    if (!is_symmetric(dest, 1)) return nullptr;  // not remotely accessible: the specification's null pointer
    // The calling PE's own object is dest itself (a port may otherwise give its global alias, as Epiphany does).
    if (pe == port::my_pe()) return const_cast<void *>(dest);
    // Another machine's memory: no address reaches it (the specification's null pointer; put and get do).
    if (by_network(pe)) return nullptr;
    return port::remote_ptr(const_cast<void *>(dest), pe);
}

int shmem_init_thread(int requested, int *provided)
{
    (void)requested;
    pshmem_init();
    // A PE is one bare-metal core with one thread of control and the library takes no locks for threads:
    // SHMEM_THREAD_SINGLE is what is really provided, whatever was asked.
    if (provided != nullptr) *provided = SHMEM_THREAD_SINGLE;
    return 0;
}

void shmem_query_thread(int *provided) { *provided = SHMEM_THREAD_SINGLE; }

void shmem_pcontrol(const int level, ...) { (void)level; }  // no profiling library to tell

void shmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    const char *s = SHMEM_VENDOR_STRING;
    size_t i = 0;
    for (; s[i] != '\0' && i < SHMEM_MAX_NAME_LEN - 1; ++i) name[i] = s[i];
    name[i] = '\0';
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_SETUP SHMEMI_NAMES_X_SETUP)
