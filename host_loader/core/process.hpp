// The processes oshrun starts: a child (an emulator) that inherits stdin and stderr, and stdout unless its output
// is relayed, with an optional time limit; the exit status of a run from how its child ended; signals; the
// watchdog that ends every child and removes every temporary directory with oshrun.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace oshrun {

struct RunResult {
    int exit_status = 0;   // the child's exit status, if it exited
    int term_signal = 0;   // the signal that killed it, if one did
    bool timed_out = false;
    int interrupted = 0;   // SIGINT/SIGTERM/SIGHUP oshrun received (and passed on) while waiting
};

// While one lives, the signals that would end oshrun (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
// SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF) no longer do: received() says which came last (0:
// none), so that the caller can stop what it runs (the emulator, the cores) and clean up before it ends.
class SignalCatcher {
public:
    SignalCatcher();
    ~SignalCatcher();
    SignalCatcher(const SignalCatcher&) = delete;
    SignalCatcher& operator=(const SignalCatcher&) = delete;
    static int received();

private:
    struct ::sigaction old_[12];  // the handlers to restore, one per caught signal
};

// What run_child hands the child's stdout to, a piece at a time, as it comes.
using OutputSink = std::function<void(const char* bytes, size_t n)>;

// Reads what the pipe fd holds now (it is non-blocking) into on_output, at most max_reads reads (a child that writes
// without pause must not keep the caller from its time limit and signals). False once the write end is closed and
// all is read. Throws Failure (status 1) on a read error. (The emulator's stdout here; linux: every PE's pipes.)
bool drain(int fd, const OutputSink& on_output, size_t max_reads = SIZE_MAX);

// Runs argv (argv[0] looked up on PATH unless it has a '/'). timeout_seconds <= 0: no limit. On expiry the child
// gets SIGTERM, then SIGKILL 2 s later; a SIGINT, SIGTERM or SIGHUP to oshrun is passed on to it likewise. Throws
// Failure (status 127) if it cannot be started.
// With on_output, the child's stdout is a pipe: oshrun waits in poll() on it, hands every byte to on_output as
// soon as it arrives, and after the child has ended reads what is left in the pipe before it returns. Without, the
// child writes to oshrun's stdout itself.
RunResult run_child(const std::vector<std::string>& argv, double timeout_seconds, const OutputSink& on_output = {});

// oshrun's exit status for a run whose PEs' exit records came in a child's relayed output (virt-rv64: QEMU's UART)
// and whose result is r: 124 after a timeout ("oshrun: timeout: ..."), 128 + n after signal n ("oshrun:
// interrupted by ..."); else the status of an exit record (exits, in order of arrival): of several, the one the
// child's own exit status names, else the first; else 125, the child ended before the program did ("oshrun: the
// emulator (<emulator>) failed (...)"). oshrun's line goes to stderr; program, timeout and npes are for it.
int emulator_status(const RunResult& r, const std::vector<int>& exits, const std::string& emulator,
                    const std::string& program, double timeout, unsigned npes);

// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice); throws Failure (status 1).
unsigned free_tcp_port();

// The full path of program on PATH, or "" if it is not there (or not executable).
std::string find_on_path(const std::string& program);

// The processes oshrun starts end with it, however it ends. Each dies with oshrun (PR_SET_PDEATHSIG) and is
// registered with watch_child(): a watchdog process, started with the first TempDir, kills every registered
// process (or the group it leads) and removes the TempDirs' directories when oshrun ends without saying so
// (SIGKILL, a crash); a normal end (the last ~TempDir) stops it quietly. So neither an emulator nor a temporary
// directory outlives oshrun.
void watch_child(pid_t pid, bool own_group);

// In a child between fork and exec: death with oshrun, and with own_group a process group of its own (signals
// then reach it through oshrun, never straight from the terminal; only for a child that does not read the
// terminal). parent is oshrun's pid before the fork: if oshrun has already died, the child exits.
void tie_child_to(pid_t parent, bool own_group);

// A fresh directory from mkdtemp under $TMPDIR (or /tmp), removed with its contents on destruction, and by the
// watchdog (above) if oshrun ends without destroying it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    static std::string pattern();  // what mkdtemp is given: <base>/oshrun.XXXXXX
private:
    std::string path_;
};

// Words joined with spaces, each quoted for a POSIX shell if it needs it.
std::string shell_join(const std::vector<std::string>& words);

}  // namespace oshrun
