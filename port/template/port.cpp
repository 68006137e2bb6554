// The out-of-line part of the template port: its geometry, the console and the end of a run (port.hpp declares
// them). One PE, an ordinary host process: the console is the process's stdout and stderr, the end of the run its
// exit.
#include <unistd.h>

#include "port.hpp"

namespace shmem::port {

namespace {
// The symmetric heap. A real port's is the rest of its partition after the static data, up to the stack (its linker
// script and startup code say where).
alignas(64) unsigned char symmetric_heap[1 << 20];
}  // namespace

// A real port's startup code fills this in from its boot block before any constructor runs; here it is constant
// data (addresses are link-time constants), so it is there before any constructor too.
Geometry geometry = {0, reinterpret_cast<uintptr_t>(symmetric_heap),
                     reinterpret_cast<uintptr_t>(symmetric_heap + sizeof symmetric_heap), 0, 1};

// A real port writes records (console_protocol.h) that oshrun reassembles per PE and stream: to a UART under a
// machine-wide lock (virt-rv64), or into a ring of the PE's own that the host drains (crt/common/console_ring.hpp).
void console_write(char kind, const char *buf, size_t n)
{
    const int fd = kind == SHMEM_CONSOLE_STDERR ? 2 : 1;
    while (n != 0) {
        const ssize_t w = write(fd, buf, n);
        if (w <= 0) return;
        buf += w;
        n -= size_t(w);
    }
}

// A real port: status 0 leaves this PE's memory reachable until every PE is done (it sleeps for good, or tells the
// loader); any other status ends the whole run, as end_run.
void finish(int status) { end_run(status); }

// A real port tells the loader (the emulator's exit device, the mailbox's state word), after everything this PE
// wrote to the console, and stops.
void end_run(int status) { _exit(status > 0 && status < 256 ? status : status == 0 ? 0 : 255); }

}  // namespace shmem::port
