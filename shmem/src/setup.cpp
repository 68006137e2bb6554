// Library setup, exit and query routines.
#include "internal.hpp"
#include "shmemx.h"

namespace shmem::detail {
State state;
}

using namespace shmem;
using namespace shmem::detail;

extern "C" {

void shmem_init(void)
{
    if (state.initialized++ == 0) {
        const auto &g = port::geometry;
        state.heap.init(g.heap_lo, g.heap_hi);
        init_teams();
    }
    sync_all();
}

void shmem_finalize(void)
{
    check_init("shmem_finalize");
    shmem_quiet();
    sync_all();
    --state.initialized;
}

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
    return shmem_pe_accessible(pe) && is_symmetric(addr, 1);
}

void *shmem_ptr(const void *dest, int pe)
{
    check_init("shmem_ptr");
    check_pe("shmem_ptr", pe);
    if (!is_symmetric(dest, 1)) return nullptr;  // not remotely accessible: the specification's null pointer
    return port::remote_ptr(const_cast<void *>(dest), pe);
}

int shmem_init_thread(int requested, int *provided)
{
    (void)requested;
    shmem_init();
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
