// Start-up through PMIx: a program that a PMIx launcher started (Open MPI's mpirun, Slurm's srun --mpi=pmix) learns
// its PE number, the run's size and its node's PEs from the launcher's PMIx server, exchanges its network addresses
// through it (PMIx_Put, PMIx_Commit, one PMIx_Fence that collects the data: no point-to-point handshakes), and
// ends the whole job through it (PMIx_Abort). PMIx is loaded (dlopen) only by such a program: one that oshrun
// starts, or that runs by itself, never loads it.
//
// The PEs of a node that are consecutive in number share one memory object, which they open by a name of the job's
// and the node's (shm_open) and which the last of them to map it removes; a PE of the same node outside that
// range is reached through the network (UCX's shared-memory transports then serve it).
// SHMEM_LINUX_EMULATED_NODES=K (for testing on one machine, as oshrun --nodes K) splits the run's PEs into K blocks
// too, as if they were on K nodes.
#include "pmix.hpp"

#include <string.h>

namespace shmem::port {
bool pmix_launched(char **envp)
{
    for (char **e = envp; e != nullptr && *e != nullptr; ++e)
        if (strncmp(*e, "PMIX_RANK=", 10) == 0) return true;
    return false;
}
}  // namespace shmem::port

#if SHMEM_NET_PMIX
#include <dlfcn.h>
#include <fcntl.h>
#include <pmix.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "message.hpp"
#include "port.hpp"

namespace shmem::port {

namespace {

#define SHMEM_PMIX_FUNCTIONS(X)                                                                           \
    X(PMIx_Init) X(PMIx_Get) X(PMIx_Put) X(PMIx_Commit) X(PMIx_Fence) X(PMIx_Fence_nb) X(PMIx_Abort) X(PMIx_Finalize)
struct Pmix {
#define SHMEM_PMIX_FIELD(f) decltype(&::f) f;
    SHMEM_PMIX_FUNCTIONS(SHMEM_PMIX_FIELD)
#undef SHMEM_PMIX_FIELD
} pmix;

pmix_proc_t self;         // this PE's name: the job's namespace and its rank
bool started;             // PMIx_Init succeeded
char object_name[64];     // the node's memory object, until the last PE of the node removes it
constexpr char key[] = "libshmem.net";

[[noreturn]] void failed(const char *what, pmix_status_t st)
{
    detail::Message m;
    m.s("libshmem: start-up: ").s(what);
    if (st != PMIX_SUCCESS) m.s(" (PMIx status ").i(st).s(")");
    m.write_early();
    _exit(127);
}

pmix_proc_t proc_of(int pe)
{
    pmix_proc_t p = self;
    p.rank = pe < 0 ? PMIX_RANK_WILDCARD : pmix_rank_t(pe);
    return p;
}

// A job-level value of the launcher's (rank: wildcard).
pmix_value_t *job_value(const char *name)
{
    pmix_proc_t all = proc_of(-1);
    pmix_value_t *v = nullptr;
    const pmix_status_t st = pmix.PMIx_Get(&all, name, nullptr, 0, &v);
    if (st != PMIX_SUCCESS || v == nullptr) failed(name, st);
    return v;
}

pmix_info_t collect_info()
{
    pmix_info_t info;
    memset(&info, 0, sizeof info);
    strncpy(info.key, PMIX_COLLECT_DATA, PMIX_MAX_KEYLEN);
    info.value.type = PMIX_BOOL;
    info.value.data.flag = true;
    return info;
}

}  // namespace

int pmix_start(PmixRun *run)
{
    void *lib = dlopen("libpmix.so.2", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        detail::Message m;
        m.s("libshmem: start-up: a PMIx launcher started this program, and PMIx cannot be loaded (").s(dlerror())
            .s("); Debian: apt-get install libpmix2");
        m.write_early();
        _exit(127);
    }
#define SHMEM_PMIX_LOAD(f)                                                                              \
    pmix.f = reinterpret_cast<decltype(pmix.f)>(dlsym(lib, #f));                                       \
    if (pmix.f == nullptr) failed("PMIx's libpmix.so.2 lacks " #f, PMIX_SUCCESS);
    SHMEM_PMIX_FUNCTIONS(SHMEM_PMIX_LOAD)
#undef SHMEM_PMIX_LOAD
    const pmix_status_t st = pmix.PMIx_Init(&self, nullptr, 0);
    if (st != PMIX_SUCCESS) failed("PMIx_Init: the launcher's PMIx server did not answer", st);
    started = true;
    // A process that ends without PMIx_Finalize is an abnormal end to the launcher. Registered after PMIx's own exit
    // handlers, this one runs before them; a run across nodes registers its network's end later still, so that it
    // runs first (crt/linux, start_network).
    on_exit([](int, void *) { pmix.PMIx_Finalize(nullptr, 0); }, nullptr);
    run->pe = int(self.rank);
    run->npes = int(job_value(PMIX_JOB_SIZE)->data.uint32);
    if (run->npes < 1 || run->npes > max_pes || run->pe >= run->npes) {
        detail::Message m;
        m.s("libshmem: start-up: the launcher's job has ").i(run->npes).s(" processes; this libshmem runs 1 to ")
            .i(max_pes).s(" PEs");
        m.write_early();
        pmix.PMIx_Abort(127, "libshmem: too many PEs", nullptr, 0);
        _exit(127);
    }
    // The node's PEs, consecutive in number around this one.
    const char *peers = job_value(PMIX_LOCAL_PEERS)->data.string;
    bool local[max_pes] = {};
    int on_node = 0;
    for (const char *p = peers; p != nullptr && *p != '\0';) {
        char *end;
        const long r = strtol(p, &end, 10);
        if (end == p) break;
        if (r >= 0 && r < run->npes) local[r] = true, ++on_node;
        p = *end == ',' ? end + 1 : end;
    }
    local[run->pe] = true;
    int lo = run->pe, hi = run->pe;
    while (lo > 0 && local[lo - 1]) --lo;
    while (hi + 1 < run->npes && local[hi + 1]) ++hi;
    // Emulated nodes (testing): block-wise, the first npes mod K one PE larger.
    if (const char *k = getenv("SHMEM_LINUX_EMULATED_NODES")) {
        const int nodes = atoi(k);
        if (nodes >= 1 && nodes <= run->npes) {
            const int base = run->npes / nodes, extra = run->npes % nodes;
            int first = 0;
            for (int j = 0; j < nodes; ++j) {
                const int size = base + (j < extra ? 1 : 0);
                if (run->pe < first + size) {
                    if (lo < first) lo = first;
                    if (hi > first + size - 1) hi = first + size - 1;
                    break;
                }
                first += size;
            }
        }
    }
    run->node_first = lo;
    run->node_npes = hi - lo + 1;
    run->node_processes = on_node < 1 ? 1 : on_node;
    // The node's memory object: named by the job and the node's first PE (a job's namespace is unique).
    char name[sizeof object_name] = "/libshmem.";
    size_t at = strlen(name);
    for (const char *c = self.nspace; *c != '\0' && at + 12 < sizeof name; ++c)
        name[at++] = (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ? *c : '_';
    name[at++] = '.';
    char digits[12];
    int nd = 0;
    for (unsigned v = unsigned(lo); nd == 0 || v != 0; v /= 10) digits[nd++] = char('0' + v % 10);
    while (nd > 0) name[at++] = digits[--nd];
    name[at] = '\0';
    memcpy(object_name, name, sizeof name);
    const int fd = shm_open(object_name, O_RDWR | O_CREAT, 0600);
    if (fd < 0) failed("cannot open the node's shared memory object (shm_open in /dev/shm)", PMIX_SUCCESS);
    return fd;
}

void pmix_node_mapped() { shm_unlink(object_name); }

void pmix_publish(const void *bytes, size_t n)
{
    pmix_value_t v;
    memset(&v, 0, sizeof v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = static_cast<char *>(const_cast<void *>(bytes));
    v.data.bo.size = n;
    pmix_status_t st = pmix.PMIx_Put(PMIX_GLOBAL, key, &v);
    if (st == PMIX_SUCCESS) st = pmix.PMIx_Commit();
    if (st != PMIX_SUCCESS) failed("PMIx_Put/PMIx_Commit of this PE's network addresses", st);
    pmix_proc_t all = proc_of(-1);
    pmix_info_t info = collect_info();
    st = pmix.PMIx_Fence(&all, 1, &info, 1);
    if (st != PMIX_SUCCESS) failed("PMIx_Fence of the network addresses", st);
}

const void *pmix_fetch(int pe, size_t *n)
{
    pmix_proc_t p = proc_of(pe);
    pmix_value_t *v = nullptr;
    const pmix_status_t st = pmix.PMIx_Get(&p, key, nullptr, 0, &v);
    if (st != PMIX_SUCCESS || v == nullptr || v->type != PMIX_BYTE_OBJECT) return nullptr;
    *n = v->data.bo.size;
    return v->data.bo.bytes;
}

namespace {
void fence_done(pmix_status_t, void *flag) { __atomic_store_n(static_cast<bool *>(flag), true, __ATOMIC_RELEASE); }
}  // namespace

void pmix_fence_start(bool *done)
{
    pmix_proc_t all = proc_of(-1);
    if (pmix.PMIx_Fence_nb(&all, 1, nullptr, 0, fence_done, done) != PMIX_SUCCESS) *done = true;
}

void pmix_abort(int status)
{
    if (started) pmix.PMIx_Abort(status, "libshmem: the run ends (see this PE's report above)", nullptr, 0);
}

}  // namespace shmem::port

#else  // built without PMIx's headers: a program that a PMIx launcher started is refused

#include <unistd.h>

#include "message.hpp"
#include "port.hpp"

namespace shmem::port {
int pmix_start(PmixRun *)
{
    detail::Message m;
    m.s("libshmem: start-up: a PMIx launcher (mpirun, srun) started this program, and this libshmem was built ")
        .s("without PMIx (configure found no libpmix-dev); start it with oshrun");
    m.write_early();
    _exit(127);
}
void pmix_node_mapped() {}
void pmix_publish(const void *, size_t) { __builtin_trap(); }
const void *pmix_fetch(int, size_t *) { return nullptr; }
void pmix_fence_start(bool *done) { *done = true; }
void pmix_abort(int) {}
}  // namespace shmem::port
#endif
