// The linux port's network: the PEs of other nodes, reached through UCX (port.hpp, has_network). Only a run that
// spans nodes starts it (geometry.networked); a run on one node never calls UCX.
//
// What each PE publishes at start-up (net_start): its UCX worker's address, and for each of its two symmetric
// regions (the static data pages, the heap) the region's base address and its packed remote key. An object's
// address at another PE is that PE's base plus the object's offset in this PE's region: the regions have the same
// sizes everywhere (one image, one heap size), but not always the same addresses. The exchange goes through the
// board that the launcher gives every PE (oshrun --nodes: a memory object shared by the whole run): a slot per PE,
// then a count that every PE waits on, once (one collective exchange, never point-to-point handshakes). Endpoints
// and remote keys are made from a PE's slot when this PE first reaches it.
//
// Completion: a put returns when its source may be reused; quiet() flushes the worker (net_flush), so every put
// is in place at its target after it. A get and an AMO wait for their result. Transports that emulate RMA in
// software (TCP) move the others' puts into this PE's memory only while this PE progresses the worker: every wait
// of the port does (net_wait), as does every wait for a request here, and between them the progress thread does
// (SHMEM_PROGRESS_INTERVAL): a PE that computes, or polls its memory with shmem_test, still answers the others.
#if SHMEM_NET_UCX
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucp/api/ucp.h>
#include <unistd.h>

#include "message.hpp"
#include "pmix.hpp"
#include "port.hpp"

extern "C" char __shmem_static_end[];

namespace shmem::port {

namespace {

using detail::Message;

// UCX is loaded when a run spans nodes (net_start), never in a run on one node: loaded with the program, its
// libraries' constructors install signal handlers of their own (over the fault report of crt/linux) and memory
// hooks. Its functions, found by name in libucp.so.0 (and the libraries it loads).
#define SHMEM_UCX_FUNCTIONS(X)                                                                                  \
    X(ucp_config_read) X(ucp_config_release) X(ucp_init_version) X(ucp_worker_create) X(ucp_worker_get_address) \
    X(ucp_worker_release_address) X(ucp_mem_map) X(ucp_rkey_pack) X(ucp_rkey_buffer_release) X(ucp_ep_create)  \
    X(ucp_ep_rkey_unpack) X(ucp_put_nbx) X(ucp_get_nbx) X(ucp_atomic_op_nbx) X(ucp_worker_fence)                 \
    X(ucp_worker_flush_nbx) X(ucp_worker_progress) X(ucp_request_check_status) X(ucp_request_free)              \
    X(ucp_worker_get_efd) X(ucp_worker_arm) X(ucp_worker_set_am_recv_handler) X(ucp_am_send_nbx)             \
    X(ucs_status_string)
struct Ucx {
#define SHMEM_UCX_FIELD(f) decltype(&::f) f;
    SHMEM_UCX_FUNCTIONS(SHMEM_UCX_FIELD)
#undef SHMEM_UCX_FIELD
} ucx;

constexpr int regions = 2;  // 0: the static data pages, 1: the symmetric heap

// The board's layout (this file's alone; oshrun only creates the object): a header page, then one slot per PE.
struct BoardHeader {
    uint32_t published;  // PEs whose slot is complete
    uint32_t stopped;    // PEs whose endpoints are closed (net_stop)
};
struct Slot {
    uint64_t base[regions];
    uint32_t address_bytes;
    uint32_t rkey_bytes[regions];
    uint32_t node_npes;  // the PEs of its node (the node's first PE's slot tells where the next node begins)
    unsigned char data[];  // the worker's address, then each region's packed key
};
constexpr size_t board_header_bytes = 4096;
constexpr size_t slot_bytes = 16384;
constexpr size_t slot_data_bytes = slot_bytes - sizeof(Slot);

struct Peer {
    ucp_ep_h ep;
    ucp_rkey_h rkey[regions];
    uint64_t base[regions];  // its regions' addresses
    bool gone;  // its connection ended (the peer's process ended): an operation on it fails, with a report
};

struct Net {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_mem_h memh[regions];
    int efd;  // the worker's event file descriptor (UCP_FEATURE_WAKEUP)
    bool unflushed;  // a put or a posted AMO since the last flush: quiet() flushes only then (a flush is a round trip)
    uint32_t gets;   // net_get_nbi's gets in flight (their callbacks count down, on whichever thread progresses)
    ucs_status_t get_status;  // the first of them that failed, and its PE
    int get_failed_pe;
    uintptr_t lo[regions], len[regions];  // this PE's regions
    const unsigned char *board;  // oshrun's start-up board; null: the launcher's PMIx server has the slots
    Peer *peers;  // npes entries, filled in on first use
    // The progress thread (progress_main), if it runs; the worker is then UCS_THREAD_MODE_MULTI.
    uint64_t progress_ns;  // its period (SHMEM_PROGRESS_INTERVAL); 0: no thread
    uint32_t waiting;      // the PE's own thread is in progress_until, progressing the worker itself
    uint32_t waits;        // progress_until's calls so far (modulo 2^32)
    uint32_t stopping;     // net_stop: the thread stops looking (a futex word: it wakes the thread)
    uint32_t parked;       // the thread has stopped, for good (a futex word: net_stop waits for it)
} net;

[[noreturn]] void start_failed(const char *what, ucs_status_t st)
{
    Message m;
    m.s("libshmem: start-up: PE ").i(geometry.pe).s(": ").s(what);
    if (st != UCS_OK) m.s(": ").s(ucx.ucs_status_string(st));
    m.write_early();
    _exit(127);
}

[[noreturn]] void op_failed(const char *what, int pe, ucs_status_t st)
{
    detail::Message()
        .s("libshmem: PE ").i(geometry.pe).s(": the network (UCX): ").s(what).s(" PE ").i(pe).s(" failed: ")
        .s(ucx.ucs_status_string(st))
        .s(net.peers[pe].gone ? " (the connection to it had ended: its process ended, or the network failed)" : "")
        .write();
    end_run(70);
}

const Slot *slot_of(int pe)
{
    if (net.board != nullptr)
        return reinterpret_cast<const Slot *>(net.board + board_header_bytes + size_t(pe) * slot_bytes);
    size_t n = 0;
    const void *bytes = pmix_fetch(pe, &n);
    if (bytes == nullptr || n < sizeof(Slot)) {
        detail::Message()
            .s("libshmem: PE ").i(geometry.pe).s(": the network: PE ").i(pe)
            .s(" published no addresses through PMIx (is it a libshmem program of this version?)")
            .write();
        end_run(70);
    }
    return static_cast<const Slot *>(bytes);
}

// Everything the worker has to do now (the progress of UCX until it reports nothing done); whether it did any.
bool drain()
{
    bool worked = false;
    while (ucx.ucp_worker_progress(net.worker) != 0) worked = true;
    return worked;
}

// This PE's own thread progresses the worker: the progress thread need not look for this period.
void mark_progressed() { __atomic_store_n(&net.waits, net.waits + 1, __ATOMIC_RELAXED); }  // (only it writes)

// Progresses the network until done(): net_plain_looks looks (where the PE has a CPU of its own, net_busy_looks: a
// wake-up from poll() costs about as much as the round trip it waits for; Open MPI's and Sandia's waiters look for
// ever); then net_yield_looks looks with the CPU yielded between them (with more PEs than CPUs, the peer that will
// answer may be waiting for this CPU; Open MPI's waiters yield likewise); then it sleeps in poll() on the worker's
// events, which the network's arrivals raise, looking once per wake-up or millisecond. A look that found work
// (another PE's put, get or AMO on this PE's memory, over a transport that emulates them: the PE is serving a
// stream of them) starts the phase it is in again, and a sleeping PE's the yielding one: a PE that answers
// requests keeps answering them at a look's cost, not a wake-up's, for as long as they come. The phases are
// counted in looks, not time, so that end_grace_polls (shmem_port.hpp), which counts looks, is about a second of
// sleep after them. A PE of this node that writes and then finds `sleeping` at sleeps_in_poll (wake_if_sleeping)
// rings this PE's doorbell through the network (net_wake), which raises them too; the millisecond of poll's
// timeout is the backstop for writes that ring nothing (plain stores through shmem_ptr).
template <class Done>
void progress_until(Done done)
{
    const unsigned busy = net_plain_looks();
    // (Nested calls are not made: a wait's done() does not wait.)
    __atomic_store_n(&net.waiting, 1u, __ATOMIC_RELAXED);
    mark_progressed();
    for (unsigned i = 0;; ++i) {
        const bool worked = drain();
        if (done()) break;
        if (worked) i = i < busy ? 0 : busy;
        if (i < busy) continue;
        if (i < busy + net_yield_looks) {
            sched_yield();
            continue;
        }
        // The order of wait_until's protocol: say it sleeps, fence, look; the writer writes, fences, reads it.
        const uint32_t outer = __atomic_load_n(&sleeping, __ATOMIC_RELAXED);
        __atomic_store_n(&sleeping, sleeps_in_poll, __ATOMIC_RELAXED);
        fence();
        if (!done() && ucx.ucp_worker_arm(net.worker) == UCS_OK) {  // (busy: events came meanwhile, look again)
            pollfd p{net.efd, POLLIN, 0};
            poll(&p, 1, 1);
        }
        __atomic_store_n(&sleeping, outer, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&net.waiting, 0u, __ATOMIC_RELAXED);
}

// The progress thread: once a period it empties the worker's queue of work (the others' puts, gets and AMOs on
// this PE's memory, over a transport that emulates them), unless the PE's own thread has been in a wait, which
// progresses the worker itself, at any time since the last look: so it works only for a PE that has been away
// from the network for a whole period, and never takes the events that wake a PE's wait. Its signals are blocked
// but for the faults (a signal for the process goes to the PE's thread; a fault in this one is reported as any).
void *progress_main(void *)
{
    const timespec period{time_t(net.progress_ns / 1000000000u), long(net.progress_ns % 1000000000u)};
    uint32_t seen = 0;
    while (__atomic_load_n(&net.stopping, __ATOMIC_ACQUIRE) == 0) {
        futex(&net.stopping, FUTEX_WAIT, 0, &period);
        const uint32_t waits = __atomic_load_n(&net.waits, __ATOMIC_RELAXED);
        if (waits != seen || __atomic_load_n(&net.waiting, __ATOMIC_RELAXED) != 0) {
            seen = waits;
            continue;
        }
        drain();
    }
    // Parked, not ended: the process's end ends it. (A thread's end in this runtime's processes faults under
    // ThreadSanitizer, in the thread's own exit; nothing is lost by never ending it.)
    __atomic_store_n(&net.parked, 1u, __ATOMIC_RELEASE);
    futex(&net.parked, FUTEX_WAKE, 1, nullptr);
    for (;;) futex(&net.stopping, FUTEX_WAIT, 1, nullptr);
}

// SHMEM_PROGRESS_INTERVAL: the progress thread's period in microseconds (Sandia OpenSHMEM's name); 0, none.
// Default 1000: a target that computes answers within a millisecond, for a wake-up a millisecond's cost.
uint64_t progress_interval_ns()
{
    const char *v = getenv("SHMEM_PROGRESS_INTERVAL");
    if (v == nullptr) return 1000000;
    char *end;
    errno = 0;
    const unsigned long long us = strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || us > 10000000) {
        Message m;
        m.s("libshmem: start-up: PE ").i(geometry.pe).s(": SHMEM_PROGRESS_INTERVAL = '").s(v)
            .s("'; expected microseconds between the progress thread's looks, 0 (no thread) to 10000000");
        m.write_early();
        _exit(127);
    }
    return us * 1000;
}

// Waits for a request of this PE's (a null one is complete); its status.
ucs_status_t finish_request(ucs_status_ptr_t r)
{
    if (r == nullptr) return UCS_OK;
    if (UCS_PTR_IS_ERR(r)) return UCS_PTR_STATUS(r);
    ucs_status_t st;
    progress_until([r, &st] { return (st = ucx.ucp_request_check_status(r)) != UCS_INPROGRESS; });
    ucx.ucp_request_free(r);
    return st;
}

// A connection that ended: its peer's process ended (after the run's last barrier, a PE's process ends while the
// others' still hold connections to it), or the network failed. Not an error by itself: UCX is told that the
// endpoints handle it (UCP_ERR_HANDLING_MODE_PEER), and an operation on that peer later fails with a report.
void connection_ended(void *arg, ucp_ep_h, ucs_status_t)
{
    net.peers[reinterpret_cast<intptr_t>(arg)].gone = true;
}

Peer &peer(int pe)
{
    Peer &p = net.peers[pe];
    if (__builtin_expect(p.ep != nullptr, 1)) return p;
    const Slot *s = slot_of(pe);
    ucp_ep_params_t ep{};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                    UCP_EP_PARAM_FIELD_ERR_HANDLER;
    ep.address = reinterpret_cast<const ucp_address_t *>(s->data);
    ep.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    ep.err_handler.cb = connection_ended;
    ep.err_handler.arg = reinterpret_cast<void *>(intptr_t(pe));
    ucs_status_t st = ucx.ucp_ep_create(net.worker, &ep, &p.ep);
    if (st != UCS_OK) op_failed("connecting to", pe, st);
    const unsigned char *key = s->data + s->address_bytes;
    for (int r = 0; r < regions; ++r) {
        p.base[r] = s->base[r];
        st = ucx.ucp_ep_rkey_unpack(p.ep, key, &p.rkey[r]);
        if (st != UCS_OK) op_failed("unpacking the memory key of", pe, st);
        key += s->rkey_bytes[r];
    }
    return p;
}

// The region of this PE's that holds the n bytes at a, or -1.
int region_of(uintptr_t a, size_t n)
{
    for (int r = 0; r < regions; ++r)
        if (a - net.lo[r] < net.len[r] && n <= net.len[r] - (a - net.lo[r])) return r;
    return -1;
}

// PE pe's address of the object at `local` (this PE's symmetric memory) and the key of its region.
uint64_t remote_address(const void *local, int pe, ucp_rkey_h *rkey)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(local);
    const int r = region_of(a, 1);
    if (r >= 0) {
        const Peer &p = peer(pe);
        *rkey = p.rkey[r];
        return p.base[r] + (a - net.lo[r]);
    }
    detail::Message()
        .s("libshmem: PE ").i(geometry.pe).s(": the network: ").x(a)
        .s(" is not in this PE's symmetric memory (a library bug: the routine checked it)")
        .write();
    end_run(70);
}

// Loads UCX (Ucx, above). Its error handlers stay off unless the user's environment asks for them: a fault is
// reported by crt/linux, as in every run.
void load_ucx()
{
    setenv("UCX_ERROR_SIGNALS", "", 0);
    void *lib = dlopen("libucp.so.0", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        Message m;
        m.s("libshmem: start-up: PE ").i(geometry.pe).s(": this run spans nodes, and UCX cannot be loaded (")
            .s(dlerror()).s("); Debian: apt-get install libucx0");
        m.write_early();
        _exit(127);
    }
#define SHMEM_UCX_LOAD(f)                                                                                 \
    ucx.f = reinterpret_cast<decltype(ucx.f)>(dlsym(lib, #f));                                           \
    if (ucx.f == nullptr) start_failed("UCX's libucp.so.0 lacks " #f " (UCX older than 1.11?)", UCS_OK);
    SHMEM_UCX_FUNCTIONS(SHMEM_UCX_LOAD)
#undef SHMEM_UCX_LOAD
}


// A signal (net_put_signal: bytes, then a flag that its target waits for) goes as one active message, not as puts:
// over TCP UCX acknowledges every put, so a put is two messages and its completion a round trip, where an active
// message is one message, sent eagerly (UCP_AM_SEND_FLAG_EAGER: in fragments where it is long, which the target
// gets together). Its header says where the bytes and the flag go at the target, its data are the bytes; the
// target's handler (in its progress of the worker, or its progress thread's) checks both against its symmetric
// memory, copies the bytes, then sets or raises the flag in one piece (a release).
constexpr unsigned signal_message = 1;  // the active message's id
struct SignalHeader {
    uint64_t dest;   // the bytes' address at the target (none: 0)
    uint64_t flag;   // the flag's
    uint64_t value;  // set to it, or raised by it
    uint32_t flag_bytes;  // 4 or 8
    uint32_t add;         // 1: raise; 0: set
};
ucs_status_t signal_arrived(void *, const void *header, size_t header_bytes, void *data, size_t n,
                            const ucp_am_recv_param_t *param)
{
    SignalHeader h{};
    const bool whole = header_bytes == sizeof h && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0;
    if (whole) memcpy(&h, header, sizeof h);
    if (!whole || (h.flag_bytes != 4 && h.flag_bytes != 8) || h.flag % h.flag_bytes != 0 ||
        region_of(h.flag, h.flag_bytes) < 0 || (n != 0 && region_of(h.dest, n) < 0)) {
        detail::Message()
            .s("libshmem: PE ").i(geometry.pe).s(": the network: a signal message for ").x(h.flag).s(" with ").u(n)
            .s(" bytes for ").x(h.dest)
            .s(", which are not in this PE's symmetric memory (a library bug, or another program's message)")
            .write();
        end_run(70);
    }
    if (n != 0) memcpy(reinterpret_cast<void *>(h.dest), data, n);
    if (h.flag_bytes == 4) {
        auto *f = reinterpret_cast<uint32_t *>(h.flag);
        if (h.add != 0)
            __atomic_fetch_add(f, uint32_t(h.value), __ATOMIC_RELEASE);
        else
            __atomic_store_n(f, uint32_t(h.value), __ATOMIC_RELEASE);
    } else {
        auto *f = reinterpret_cast<uint64_t *>(h.flag);
        if (h.add != 0)
            __atomic_fetch_add(f, h.value, __ATOMIC_RELEASE);
        else
            __atomic_store_n(f, h.value, __ATOMIC_RELEASE);
    }
    return UCS_OK;
}

// The run's atomic domain (SHMEM_ATOMIC_DOMAIN): cpu, every AMO on a PE of this node is the CPU's (UCX over TCP
// and shared memory runs the others' AMOs on the target's CPU, with its atomic instructions); net, every AMO goes
// through UCX, this node's too (a NIC's atomics are not atomic with respect to the CPU's); auto, net where the node
// has an RDMA device (InfiniBand, RoCE: /sys/class/infiniband lists one), else cpu.
bool network_atomic_domain()
{
    const char *d = getenv("SHMEM_ATOMIC_DOMAIN");
    if (d == nullptr || strcmp(d, "auto") == 0) {
        DIR *dir = opendir("/sys/class/infiniband");
        bool rdma = false;
        if (dir != nullptr) {
            for (dirent *e; !rdma && (e = readdir(dir)) != nullptr;) rdma = e->d_name[0] != '.';
            closedir(dir);
        }
        return rdma;
    }
    if (strcmp(d, "net") == 0) return true;
    if (strcmp(d, "cpu") == 0) return false;
    Message m;
    m.s("libshmem: start-up: PE ").i(geometry.pe).s(": SHMEM_ATOMIC_DOMAIN = '").s(d)
        .s("'; expected auto, net or cpu");
    m.write_early();
    _exit(127);
}

}  // namespace

void net_start(int board_fd)
{
    load_ucx();
    geometry.net_atomics = network_atomic_domain();
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    if (board_fd >= 0) {
        const size_t board_bytes = board_header_bytes + size_t(geometry.npes) * slot_bytes;
        // Every PE sizes the board the same; the first to get here grows it.
        struct stat st {};
        if (fstat(board_fd, &st) != 0) start_failed("the start-up board (SHMEM_LINUX_BOARD) is not open", UCS_OK);
        if (uint64_t(st.st_size) < board_bytes && ftruncate(board_fd, off_t(board_bytes)) != 0)
            start_failed("cannot size the start-up board", UCS_OK);
        void *b = mmap(nullptr, board_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, board_fd, 0);
        if (b == MAP_FAILED) start_failed("cannot map the start-up board", UCS_OK);
        close(board_fd);
        net.board = static_cast<const unsigned char *>(b);
    }

    ucp_config_t *config;
    ucs_status_t s = ucx.ucp_config_read(nullptr, nullptr, &config);
    if (s != UCS_OK) start_failed("UCX's configuration", s);
    ucp_params_t params{};
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
    s = ucx.ucp_init_version(UCP_API_MAJOR, UCP_API_MINOR, &params, config, &net.context);
    ucx.ucp_config_release(config);
    if (s != UCS_OK) start_failed("UCX's initialisation (ucp_init)", s);
    ucp_worker_params_t wp{};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    net.progress_ns = progress_interval_ns();
    wp.thread_mode = net.progress_ns != 0 ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
    s = ucx.ucp_worker_create(net.context, &wp, &net.worker);
    if (s != UCS_OK) start_failed("UCX's worker (ucp_worker_create)", s);
    s = ucx.ucp_worker_get_efd(net.worker, &net.efd);
    if (s != UCS_OK) start_failed("UCX's event file descriptor (ucp_worker_get_efd)", s);
    ucp_am_handler_param_t hp{};
    hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB;
    hp.id = signal_message;
    hp.cb = signal_arrived;
    s = ucx.ucp_worker_set_am_recv_handler(net.worker, &hp);
    if (s != UCS_OK) start_failed("UCX's active message handler (ucp_worker_set_am_recv_handler)", s);

    // This PE's slot: the worker's address and each region's key (in the board, or for PMIx in memory of its own).
    auto *mine = static_cast<Slot *>(net.board != nullptr ? const_cast<unsigned char *>(net.board) + board_header_bytes +
                                                                size_t(geometry.pe) * slot_bytes
                                                          : calloc(1, slot_bytes));
    if (mine == nullptr) start_failed("no memory for this PE's network addresses", UCS_OK);
    ucp_address_t *address;
    size_t address_bytes;
    s = ucx.ucp_worker_get_address(net.worker, &address, &address_bytes);
    if (s != UCS_OK) start_failed("UCX's worker address", s);
    size_t used = address_bytes;
    if (used > slot_data_bytes) start_failed("UCX's worker address does not fit in the start-up board's slot", UCS_OK);
    memcpy(mine->data, address, address_bytes);
    mine->address_bytes = uint32_t(address_bytes);
    mine->node_npes = uint32_t(geometry.node_npes);
    ucx.ucp_worker_release_address(net.worker, address);
    net.lo[0] = geometry.static_lo;
    net.len[0] = (reinterpret_cast<uintptr_t>(__shmem_static_end) + page - 1 - geometry.static_lo) & ~(page - 1);
    net.lo[1] = geometry.heap_lo;
    net.len[1] = geometry.heap_hi - geometry.heap_lo;
    for (int r = 0; r < regions; ++r) {
        ucp_mem_map_params_t mp{};
        mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
        mp.address = reinterpret_cast<void *>(net.lo[r]);
        mp.length = net.len[r];
        s = ucx.ucp_mem_map(net.context, &mp, &net.memh[r]);
        if (s != UCS_OK) start_failed("registering the symmetric memory with UCX (ucp_mem_map)", s);
        void *key;
        size_t key_bytes;
        s = ucx.ucp_rkey_pack(net.context, net.memh[r], &key, &key_bytes);
        if (s != UCS_OK) start_failed("packing a memory key (ucp_rkey_pack)", s);
        if (used + key_bytes > slot_data_bytes) start_failed("UCX's memory keys do not fit in the start-up board's slot", UCS_OK);
        memcpy(mine->data + used, key, key_bytes);
        used += key_bytes;
        mine->rkey_bytes[r] = uint32_t(key_bytes);
        mine->base[r] = net.lo[r];
        ucx.ucp_rkey_buffer_release(key);
    }

    net.peers = static_cast<Peer *>(calloc(size_t(geometry.npes), sizeof(Peer)));
    if (net.peers == nullptr) start_failed("no memory for the table of peers", UCS_OK);

    if (net.progress_ns != 0) {
        sigset_t all, old;
        sigfillset(&all);
        static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS};
        for (int sig : faults) sigdelset(&all, sig);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pthread_t thread;
        const int e = pthread_create(&thread, nullptr, progress_main, nullptr);
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        if (e != 0) start_failed("cannot start the progress thread (SHMEM_PROGRESS_INTERVAL=0 runs without)", UCS_OK);
    }

    if (net.board == nullptr) {  // through PMIx: one fence that collects every PE's slot
        pmix_publish(mine, sizeof(Slot) + used);
        free(mine);
        return;
    }
    // Published; then every PE waits for all (a futex on the count: the board is one memory object for the run).
    auto *header = reinterpret_cast<BoardHeader *>(const_cast<unsigned char *>(net.board));
    const uint32_t n = __atomic_add_fetch(&header->published, 1u, __ATOMIC_SEQ_CST);
    if (n == uint32_t(geometry.npes)) {
        futex(&header->published, FUTEX_WAKE, INT_MAX, nullptr);
    } else {
        for (uint32_t p = n; p < uint32_t(geometry.npes); p = __atomic_load_n(&header->published, __ATOMIC_SEQ_CST))
            futex(&header->published, FUTEX_WAIT, p, nullptr);
    }
}

namespace {
// n bytes between `buffer` (this PE's) and PE pe's copy of the symmetric object at `object`: a put (its source
// reusable on return) or a get (its data there on return).
template <bool Put>
void transfer(int pe, const void *object, void *buffer, size_t n)
{
    if (n == 0) return;
    if (Put) net.unflushed = true;
    ucp_rkey_h rkey;
    const uint64_t at = remote_address(object, pe, &rkey);
    ucp_request_param_t rp{};
    const ucs_status_t st = finish_request(Put ? ucx.ucp_put_nbx(peer(pe).ep, buffer, n, at, rkey, &rp)
                                               : ucx.ucp_get_nbx(peer(pe).ep, buffer, n, at, rkey, &rp));
    if (st != UCS_OK) op_failed(Put ? "a put to" : "a get from", pe, st);
}
}  // namespace

void net_put(int pe, void *dest, const void *source, size_t n) { transfer<true>(pe, dest, const_cast<void *>(source), n); }
void net_put_signal(int pe, void *dest, const void *source, size_t n, void *flag, unsigned flag_bytes, bool add,
                    uint64_t v)
{
    ucp_rkey_h rkey;
    SignalHeader h{n != 0 ? remote_address(dest, pe, &rkey) : 0, remote_address(flag, pe, &rkey), v, flag_bytes,
                   add ? 1u : 0u};
    ucp_request_param_t rp{};
    rp.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    rp.flags = UCP_AM_SEND_FLAG_EAGER;
    // (complete when sent: its source and header are then free; an eager message is sent at once, or copied)
    const ucs_status_t st = finish_request(
        ucx.ucp_am_send_nbx(peer(pe).ep, signal_message, &h, sizeof h, const_cast<void *>(source), n, &rp));
    if (st != UCS_OK) op_failed("a signal message to", pe, st);
}
void net_get(void *dest, int pe, const void *source, size_t n) { transfer<false>(pe, source, dest, n); }

namespace {
void get_done(void *request, ucs_status_t st, void *pe)
{
    if (st != UCS_OK && net.get_status == UCS_OK) {
        net.get_failed_pe = int(reinterpret_cast<intptr_t>(pe));
        net.get_status = st;
    }
    __atomic_sub_fetch(&net.gets, 1u, __ATOMIC_RELEASE);
    ucx.ucp_request_free(request);
}
}  // namespace

// A get whose request is left in flight, counted; net_get_wait (and quiet, through net_flush) waits for them all.
void net_get_nbi(void *dest, int pe, const void *source, size_t n)
{
    if (n == 0) return;
    ucp_rkey_h rkey;
    const uint64_t at = remote_address(source, pe, &rkey);
    ucp_request_param_t rp{};
    rp.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    rp.cb.send = get_done;
    rp.user_data = reinterpret_cast<void *>(intptr_t(pe));
    __atomic_add_fetch(&net.gets, 1u, __ATOMIC_RELAXED);  // (before: the callback may run before the call returns)
    const ucs_status_ptr_t r = ucx.ucp_get_nbx(peer(pe).ep, dest, n, at, rkey, &rp);
    if (r != nullptr && !UCS_PTR_IS_ERR(r)) return;
    __atomic_sub_fetch(&net.gets, 1u, __ATOMIC_RELAXED);  // complete at once (no callback), or refused
    if (UCS_PTR_IS_ERR(r)) op_failed("a get from", pe, UCS_PTR_STATUS(r));
}

void net_get_wait()
{
    if (__atomic_load_n(&net.gets, __ATOMIC_ACQUIRE) == 0) return;
    progress_until([] { return __atomic_load_n(&net.gets, __ATOMIC_ACQUIRE) == 0; });
    if (net.get_status != UCS_OK) op_failed("a get from", net.get_failed_pe, net.get_status);
}

uint64_t net_amo(AmoOp op, int pe, void *word, unsigned bytes, uint64_t v, uint64_t cond)
{
    ucp_rkey_h rkey;
    const uint64_t at = remote_address(word, pe, &rkey);
    // UCP's operands and results are words of the operation's size (little-endian: the low bytes of a uint64_t).
    uint64_t operand = v, result = 0;
    ucp_atomic_op_t uop = UCP_ATOMIC_OP_ADD;
    switch (op) {
    case AmoOp::fetch: operand = 0; break;  // an add of 0 that fetches: an atomic read
    case AmoOp::set:                        // a swap whose result is dropped
    case AmoOp::swap: uop = UCP_ATOMIC_OP_SWAP; break;
    case AmoOp::cswap:  // the buffer holds the compare value; the reply buffer the new value, then the old one
        uop = UCP_ATOMIC_OP_CSWAP;
        operand = cond;
        result = v;
        break;
    case AmoOp::add: break;
    case AmoOp::and_: uop = UCP_ATOMIC_OP_AND; break;
    case AmoOp::or_: uop = UCP_ATOMIC_OP_OR; break;
    case AmoOp::xor_: uop = UCP_ATOMIC_OP_XOR; break;
    }
    ucp_request_param_t rp{};
    rp.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
    rp.datatype = ucp_dt_make_contig(bytes);
    rp.reply_buffer = &result;
    const ucs_status_t st = finish_request(ucx.ucp_atomic_op_nbx(peer(pe).ep, uop, &operand, 1, at, rkey, &rp));
    if (st != UCS_OK) op_failed("an atomic operation on", pe, st);
    return bytes == 4 ? uint64_t(uint32_t(result)) : result;
}

void net_post(AmoOp op, int pe, void *word, unsigned bytes, uint64_t v)
{
    net.unflushed = true;
    ucp_rkey_h rkey;
    const uint64_t at = remote_address(word, pe, &rkey);
    const ucp_atomic_op_t uop = op == AmoOp::and_ ? UCP_ATOMIC_OP_AND
                                : op == AmoOp::or_ ? UCP_ATOMIC_OP_OR
                                : op == AmoOp::xor_ ? UCP_ATOMIC_OP_XOR
                                                    : UCP_ATOMIC_OP_ADD;
    ucp_request_param_t rp{};
    rp.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
    rp.datatype = ucp_dt_make_contig(bytes);
    // (the operand is read before the call returns or, for a request, before it completes: it waits for that)
    const ucs_status_t st = finish_request(ucx.ucp_atomic_op_nbx(peer(pe).ep, uop, &v, 1, at, rkey, &rp));
    if (st != UCS_OK) op_failed("an atomic operation on", pe, st);
}

void net_fence() { ucx.ucp_worker_fence(net.worker); }

// PE pe of this node sleeps in poll() on its worker's events (progress_until): a put of a word of its own through
// the network raises them. Not waited for: its request is released when it completes.
void net_wake(int pe)
{
    static uint32_t doorbell;  // symmetric (static data): the word every wake-up writes, read by nobody
    ucp_rkey_h rkey;
    const uint64_t at = remote_address(&doorbell, pe, &rkey);
    ucp_request_param_t rp{};
    const ucs_status_ptr_t r = ucx.ucp_put_nbx(peer(pe).ep, &doorbell, sizeof doorbell, at, rkey, &rp);
    if (UCS_PTR_IS_ERR(r)) op_failed("a wake-up of", pe, UCS_PTR_STATUS(r));
    if (r != nullptr) ucx.ucp_request_free(r);
}

// The network half of hw_barrier in a run across nodes (port.cpp): a dissemination barrier among the nodes' first
// PEs (the leaders), ceil(log2 nodes) rounds, as the core's among all PEs (shmem/src/sync.cpp): in round k a
// leader sets the round's flag of the leader 2^k nodes on to its barrier epoch (a signal: one message) and waits
// for its own to reach it; a flag is the epoch, one less or one more, so ">= epoch" as a signed difference is exact.
// The leaders are found once, from the PEs' published slots: node 0 begins at PE 0, and each node's first PE says
// how many PEs its node has.
namespace {
struct Leaders {
    int count;  // nodes
    int index;  // this PE's node's
    int *pe;    // each node's first PE; null until the first barrier
    uint32_t epoch;
} leaders;
uint32_t leader_round[32];  // symmetric: this leader's flag of each round, which its partner sets

[[gnu::cold, gnu::noinline]] void find_leaders()
{
    int *const pe = static_cast<int *>(calloc(size_t(geometry.npes), sizeof(int)));
    if (pe == nullptr) {
        detail::Message().s("libshmem: PE ").i(geometry.pe).s(": no memory for the table of the run's nodes").write();
        end_run(70);
    }
    int m = 0, index = -1;
    for (int p = 0; p < geometry.npes; ++m) {
        const uint32_t k = slot_of(p)->node_npes;
        if (k == 0 || k > uint32_t(geometry.npes - p)) {
            detail::Message()
                .s("libshmem: PE ").i(geometry.pe).s(": the network: PE ").i(p).s(" published a node of ").u(k)
                .s(" PEs from it, in a run of ").i(geometry.npes).s(" (a library bug, or another program's slot)")
                .write();
            end_run(70);
        }
        if (p == geometry.node_first) index = m;
        pe[m] = p;
        p += int(k);
    }
    if (index < 0) {
        detail::Message()
            .s("libshmem: PE ").i(geometry.pe).s(": the network: this PE's node, from PE ").i(geometry.node_first)
            .s(", begins at no node's first PE as the others published them (a library bug)")
            .write();
        end_run(70);
    }
    leaders.count = m, leaders.index = index, leaders.pe = pe;
}
}  // namespace

// The first PE of pe's node: this PE's node's without the table; another's, the last node's first PE at or below
// pe (the table is in PE order).
int node_first(int pe)
{
    if (reachable(pe)) return geometry.node_first;
    if (__builtin_expect(leaders.pe == nullptr, 0)) find_leaders();
    int lo = 0, hi = leaders.count - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (leaders.pe[mid] <= pe) lo = mid;
        else hi = mid - 1;
    }
    return leaders.pe[lo];
}

namespace {
struct RoundWait {
    const uint32_t *flag;
    uint32_t epoch;
};
bool round_done(const void *arg)
{
    const auto *w = static_cast<const RoundWait *>(arg);
    return int32_t(__atomic_load_n(w->flag, __ATOMIC_ACQUIRE) - w->epoch) >= 0;
}
}  // namespace

void net_leaders_barrier()
{
    if (__builtin_expect(leaders.pe == nullptr, 0)) find_leaders();
    const uint32_t epoch = ++leaders.epoch;
    const int m = leaders.count, i = leaders.index;
    for (int k = 0, d = 1; d < m; ++k, d <<= 1) {
        net_put_signal(leaders.pe[i + d < m ? i + d : i + d - m], nullptr, nullptr, 0, &leader_round[k],
                       sizeof(uint32_t), false, epoch);
        // A PE's end announced to this one ends the look (ports' barriers watch shmemi_peer_ended, port.hpp); then
        // the core finds out whether the barrier can still end, and reports it if not.
        const RoundWait w{&leader_round[k], epoch};
        progress_until([&w] { return round_done(&w) || __atomic_load_n(peer_ended_word(), __ATOMIC_RELAXED) != 0; });
        if (!round_done(&w)) detail::world_wait_ended(round_done, &w);
    }
}

void net_stop()
{
    // This PE's process ends. Every operation of its own is complete (each waits for its completion, and puts for
    // the flush); others may still wait for its answers, so it progresses until every PE of the run has got here,
    // and then leaves the network alone: no endpoint is closed, the process's end closes its connections. (Closing
    // them, as Open MPI's SPML does before it fences, made UCX 1.13 over TCP abort a worker now and then: "failed to
    // modify event handler", a connection's socket gone from the worker's event set in the middle of the closing.)
    net_flush();
    if (net.progress_ns != 0) {  // (progress_until below progresses; then the exit handlers release UCX)
        __atomic_store_n(&net.stopping, 1u, __ATOMIC_RELEASE);
        futex(&net.stopping, FUTEX_WAKE, 1, nullptr);
        while (__atomic_load_n(&net.parked, __ATOMIC_ACQUIRE) == 0) futex(&net.parked, FUTEX_WAIT, 0, nullptr);
    }
    if (net.board == nullptr) {  // a PMIx fence, which this PE progresses the network through
        bool done = false;
        pmix_fence_start(&done);
        progress_until([&done] { return __atomic_load_n(&done, __ATOMIC_ACQUIRE); });
        return;
    }
    auto *header = reinterpret_cast<BoardHeader *>(const_cast<unsigned char *>(net.board));
    __atomic_add_fetch(&header->stopped, 1u, __ATOMIC_SEQ_CST);
    progress_until([header] { return __atomic_load_n(&header->stopped, __ATOMIC_ACQUIRE) >= uint32_t(geometry.npes); });
}

void net_flush()
{
    net_get_wait();
    if (!net.unflushed) return;
    net.unflushed = false;
    ucp_request_param_t rp{};
    const ucs_status_t st = finish_request(ucx.ucp_worker_flush_nbx(net.worker, &rp));
    if (st != UCS_OK) {
        detail::Message()
            .s("libshmem: PE ").i(geometry.pe).s(": the network (UCX): completing this PE's puts (shmem_quiet) failed: ")
            .s(ucx.ucs_status_string(st))
            .write();
        end_run(70);
    }
}


// A look at the network, without waiting; the progress thread need not look for this period.
void net_progress_now()
{
    mark_progressed();
    drain();
}

// A wait of a run across nodes (wait_until): done() and the network, looked at in turn.
void net_wait(bool (*done)(void *), void *arg)
{
    progress_until([done, arg] { return done(arg); });
}

}  // namespace shmem::port

#else  // built without UCX (SHMEM_NET_UCX 0: no libucx-dev, or a cross build): a run across nodes is refused

#include "message.hpp"
#include "port.hpp"

namespace shmem::port {

void net_start(int)
{
    detail::Message m;
    m.s("libshmem: start-up: PE ").i(geometry.pe).s(": this run spans nodes, and this libshmem was built without ")
        .s("UCX (configure found no libucx-dev): it runs on one node only");
    m.write_early();
    _exit(127);
}
// Never called: net_start ended every run that spans nodes.
void net_put(int, void *, const void *, size_t) { __builtin_trap(); }
void net_get(void *, int, const void *, size_t) { __builtin_trap(); }
void net_get_nbi(void *, int, const void *, size_t) { __builtin_trap(); }
void net_get_wait() {}
uint64_t net_amo(AmoOp, int, void *, unsigned, uint64_t, uint64_t) { __builtin_trap(); }
void net_post(AmoOp, int, void *, unsigned, uint64_t) { __builtin_trap(); }
void net_put_signal(int, void *, const void *, size_t, void *, unsigned, bool, uint64_t) { __builtin_trap(); }
void net_fence() {}
void net_flush() {}
void net_progress_now() {}
void net_wake(int) {}
void net_stop() {}
void net_leaders_barrier() { __builtin_trap(); }
int node_first(int) { __builtin_trap(); }
void net_wait(bool (*)(void *), void *) { __builtin_trap(); }

}  // namespace shmem::port
#endif
