#include "mesh.hpp"

#include <epiphany/boot_block.h>
#include <string.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <thread>

#include "core/common.hpp"

namespace oshrun {

namespace {

constexpr uint32_t kHead = offsetof(shmem_ep_mailbox, head), kTail = offsetof(shmem_ep_mailbox, tail);
constexpr uint32_t kState = offsetof(shmem_ep_mailbox, state), kRing = offsetof(shmem_ep_mailbox, ring);
static_assert(offsetof(shmem_ep_mailbox, status) == kState + 4, "state and status are read together");

// stop() on every way out of run_mesh.
struct Stopper {
    Mesh& mesh;
    ~Stopper() {
        try {
            mesh.stop();
        } catch (...) {  // the run's own outcome, or exception, is what matters
        }
    }
};

void apply(Mesh& mesh, const MeshWrite& w) {
    if (!w.bytes.empty()) mesh.write(w.global, w.bytes.data(), w.bytes.size());
    static const std::vector<uint8_t> zeros(64 * KiB, 0);
    for (uint64_t done = 0; done < w.zeros;) {
        const size_t n = size_t(std::min<uint64_t>(zeros.size(), w.zeros - done));
        mesh.write(uint32_t(w.global + w.bytes.size() + done), zeros.data(), n);
        done += n;
    }
}

int exit_status(uint32_t status) { return status <= 255 ? int(status) : 255; }

}  // namespace

int run_mesh(Mesh& mesh, const EpiphanyPlan& plan, const MeshRunOptions& opt) {
    std::ostream& out = opt.out ? *opt.out : std::cout;
    std::ostream& err = opt.err ? *opt.err : std::cerr;
    using clock = std::chrono::steady_clock;
    const auto begin = clock::now();
    const std::vector<unsigned> cores = plan.coreids();
    const Stopper stopper{mesh};
    Console console(plan.npes, out, err, opt.console);  // before anything starts: it may refuse --output-filename

    mesh.reset(cores);
    for (const EpiphanyPe& pe : plan.pes)
        for (const MeshWrite& w : pe.writes) apply(mesh, w);
    for (const MeshWrite& w : plan.shared) apply(mesh, w);
    mesh.start(cores);

    std::vector<uint32_t> tail(plan.npes, 0);  // the host is the only writer of tail: no need to read it back
    std::vector<bool> done(plan.npes, false);
    auto pause = opt.min_poll;
    char ring[SHMEM_EP_MAILBOX_RING];
    for (;;) {
        bool moved = false;
        long ended = -1;      // the first PE found in state END (or STACK) this round
        bool stack_overflow = false;
        uint32_t end_status = 0;
        for (const EpiphanyPe& pe : plan.pes) {
            const unsigned k = pe.pe;
            if (done[k]) continue;  // DONE came after its last console byte, which we have taken
            // State before head: the core writes state after its last console byte, so a final state read here
            // means the head read next is final too.
            uint32_t state_status[2], head;
            mesh.read(pe.mailbox + kState, state_status, sizeof state_status);
            mesh.read(pe.mailbox + kHead, &head, sizeof head);
            const uint32_t pending = head - tail[k];  // both free-running
            if (pending > SHMEM_EP_MAILBOX_RING)
                throw Failure("PE " + std::to_string(k) + "'s console mailbox at " + hex(pe.mailbox) +
                              " is corrupt: head " + std::to_string(head) + " is " + std::to_string(pending) +
                              " bytes past tail " + std::to_string(tail[k]) + ", more than its ring holds (" +
                              std::to_string(SHMEM_EP_MAILBOX_RING) + ")", 1);
            if (pending) {
                const uint32_t at = tail[k] % SHMEM_EP_MAILBOX_RING;
                const uint32_t first = std::min(pending, SHMEM_EP_MAILBOX_RING - at);  // up to the ring's end
                mesh.read(pe.mailbox + kRing + at, ring, first);
                if (pending > first) mesh.read(pe.mailbox + kRing, ring + first, pending - first);
                console.feed(k, ring, pending);
                tail[k] = head;
                mesh.write(pe.mailbox + kTail, &tail[k], sizeof tail[k]);  // room for the core to write more
                moved = true;
            }
            switch (state_status[0]) {
            case SHMEM_EP_STATE_RUNNING: break;
            case SHMEM_EP_STATE_DONE: done[k] = true; break;
            case SHMEM_EP_STATE_END:
                if (ended < 0) ended = long(k), end_status = state_status[1];
                break;
            case SHMEM_EP_STATE_STACK:
                if (ended < 0) ended = long(k), end_status = 139, stack_overflow = true;
                break;
            default:
                throw Failure("PE " + std::to_string(k) + "'s console mailbox at " + hex(pe.mailbox) +
                              " is corrupt: state " + std::to_string(state_status[0]) +
                              " (running 0, done 1, end 2, stack overflow 3)", 1);
            }
        }
        if (ended >= 0) {
            console.finish();
            if (stack_overflow)  // the core has no room for the message: the host, which knows the stack, says it
                err << "libshmem: PE " << ended << ": stack overflow detected: the guard word at the bottom of its "
                    << "stack of " << plan.stack_size << " bytes was overwritten (found at a wait, barrier or exit); "
                    << "link with a larger stack, e.g. -Wl,--defsym=__stack_size=" << 2 * plan.stack_size
                    << ", or move data or code to external DRAM\n";
            return exit_status(end_status);
        }
        if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) {
            console.finish();
            return 0;
        }
        if (const int sig = opt.interrupted ? opt.interrupted() : 0) {
            console.finish();
            err << "oshrun: interrupted by " << strsignal(sig) << "; cores stopped\n";
            return 128 + sig;
        }
        if (opt.timeout > 0 && clock::now() - begin >= std::chrono::duration<double>(opt.timeout)) {
            console.finish();
            std::string running;
            for (unsigned k = 0; k < plan.npes; ++k)
                if (!done[k]) running += (running.empty() ? "" : ", ") + std::to_string(k);
            char limit[32];
            std::snprintf(limit, sizeof limit, "%g", opt.timeout);
            err << "oshrun: timeout: " << opt.program << " did not finish within " << limit << " s on " << plan.npes
                << " PEs (still running: PE " << running << "); cores stopped\n";
            err.flush();
            return 124;
        }
        pause = moved ? opt.min_poll : std::min(pause * 2, opt.max_poll);
        std::this_thread::sleep_for(pause);
    }
}

}  // namespace oshrun
