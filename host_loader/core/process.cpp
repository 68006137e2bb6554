#include "process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "common.hpp"

namespace oshrun {

namespace {

volatile sig_atomic_t g_received = 0;
void on_signal(int sig) { g_received = sig; }
constexpr int kCaught[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1,   SIGUSR2,
                           SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};
constexpr int kNumCaught = int(sizeof kCaught / sizeof kCaught[0]);

}  // namespace

SignalCatcher::SignalCatcher() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    g_received = 0;
    static_assert(sizeof old_ / sizeof old_[0] == kNumCaught);
    for (int i = 0; i < kNumCaught; ++i) sigaction(kCaught[i], &sa, &old_[i]);
}

SignalCatcher::~SignalCatcher() {
    for (int i = 0; i < kNumCaught; ++i) sigaction(kCaught[i], &old_[i], nullptr);
}

int SignalCatcher::received() { return g_received; }

bool drain(int fd, const OutputSink& on_output, size_t max_reads) {
    static char buf[64 * 1024];
    for (size_t reads = 0; reads < max_reads; ++reads) {
        const ssize_t got = read(fd, buf, sizeof buf);
        if (got > 0) {
            on_output(buf, size_t(got));
            continue;
        }
        if (got == 0) return false;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
        throw Failure(std::string("reading a child's output: ") + std::strerror(errno), 1);
    }
    return true;
}


RunResult run_child(const std::vector<std::string>& argv, double timeout_seconds, const OutputSink& on_output) {
    std::vector<char*> cargv;
    for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);

    // Signals that would end oshrun are passed on to the child instead, so that the emulator ends and we still
    // clean up; exec resets them to the default in the child.
    const SignalCatcher catcher;

    // The child reports a failed exec through this pipe; a successful exec closes it (O_CLOEXEC) with nothing said.
    int report[2], output[2] = {-1, -1};
    if (pipe2(report, O_CLOEXEC) != 0) throw Failure(std::string("pipe: ") + std::strerror(errno), 127);
    if (on_output && pipe2(output, O_CLOEXEC) != 0) throw Failure(std::string("pipe: ") + std::strerror(errno), 127);
    std::fflush(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw Failure(std::string("fork: ") + std::strerror(errno), 127);
    if (pid == 0) {
        // In oshrun's process group: QEMU reads the terminal (-serial stdio), which a background group may not.
        tie_child_to(parent, false);
        if (on_output) dup2(output[1], 1);  // the copy on 1 is not close-on-exec
        execvp(cargv[0], cargv.data());
        const int err = errno;
        (void)!write(report[1], &err, sizeof err);
        _exit(127);
    }
    watch_child(pid, false);
    close(report[1]);
    if (on_output) {
        close(output[1]);
        fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK);
    }
    struct Closer {  // the read end, on every way out
        int fd;
        ~Closer() {
            if (fd >= 0) close(fd);
        }
    } closer{output[0]};
    int exec_errno = 0;
    const bool exec_failed = read(report[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
    close(report[0]);
    if (exec_failed) {
        waitpid(pid, nullptr, 0);
        throw Failure("cannot run " + argv[0] + ": " + std::strerror(exec_errno), 127);
    }

    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto limit = std::chrono::duration<double>(timeout_seconds);
    clock::time_point kill_at{};
    RunResult r;
    int status = 0;
    bool open = on_output != nullptr;  // the pipe still has a writer
    bool reaped = false;
    try {
        for (;;) {
            // Wait for output (or 10 ms): output is relayed the moment it comes; the child's end, a signal or the
            // time limit are noticed within 10 ms.
            if (open) {
                pollfd pfd{output[0], POLLIN, 0};
                if (poll(&pfd, 1, 10) > 0) open = drain(output[0], on_output, 16);
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            const pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                reaped = true;
                break;
            }
            if (w < 0 && errno != EINTR) throw Failure(std::string("waitpid: ") + std::strerror(errno), 1);
            // Either way the child gets 2 s to end after the first signal, then SIGKILL.
            const auto now = clock::now();
            if (SignalCatcher::received() && !r.interrupted) {
                r.interrupted = SignalCatcher::received();
                kill(pid, r.interrupted);
                if (!r.timed_out) kill_at = now + std::chrono::seconds(2);
            }
            // At the time limit the emulator is killed outright: a SIGTERM made QEMU print its own "terminating on
            // signal 15 from pid ..." line before oshrun's report, chatter the user did not ask for.
            if (timeout_seconds > 0 && !r.timed_out && !r.interrupted && now - start >= limit) {
                r.timed_out = true;
                kill(pid, SIGKILL);
                kill_at = now;
            }
            if ((r.timed_out || r.interrupted) && now >= kill_at) kill(pid, SIGKILL);
        }
        // The child is gone: what it wrote is in the pipe (a process it left behind may hold the pipe open, so
        // read what is there rather than wait for the end of the stream).
        if (open) drain(output[0], on_output);
    } catch (...) {  // on_output failed (a file it writes): the run cannot go on
        if (!reaped) kill(pid, SIGKILL), waitpid(pid, nullptr, 0);
        throw;
    }
    if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
    return r;
}

int emulator_status(const RunResult& r, const std::vector<int>& exits, const std::string& emulator,
                    const std::string& program, double timeout, unsigned npes) {
    if (r.timed_out) {
        std::fprintf(stderr, "oshrun: timeout: %s did not finish within %g s on %u PEs; emulator killed\n",
                     program.c_str(), timeout, npes);
        return 124;
    }
    if (r.interrupted) {
        std::fprintf(stderr, "oshrun: interrupted by %s; emulator stopped\n", strsignal(r.interrupted));
        return 128 + r.interrupted;
    }
    // The program's status is what its exit record says: the last thing the PE that ended the run wrote. Should
    // two PEs have ended it at once, the emulator's own status (from the finisher, written after the record)
    // tells which one won.
    if (!exits.empty()) {
        if (!r.term_signal && std::find(exits.begin(), exits.end(), r.exit_status) != exits.end()) return r.exit_status;
        return exits.front();
    }
    // No exit record: the program never ended; the emulator did (a bad option, could not start, crashed).
    const std::string how = r.term_signal ? "killed by signal " + std::to_string(r.term_signal) + " (" +
                                                strsignal(r.term_signal) + ")"
                                          : "exit status " + std::to_string(r.exit_status);
    std::fprintf(stderr, "oshrun: the emulator (%s) failed (%s) before the program ended\n", emulator.c_str(),
                 how.c_str());
    return 125;
}

unsigned free_tcp_port() {
    // Bind port 0 and see what the kernel chose. The port is free again once closed; another process could take it
    // before QEMU does, which QEMU then reports (use --gdb-port to choose).
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw Failure(std::string("socket: ") + std::strerror(errno), 1);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    const int err = errno;
    close(fd);
    if (!ok) throw Failure(std::string("cannot find a free TCP port on 127.0.0.1: ") + std::strerror(err), 1);
    return ntohs(addr.sin_port);
}

std::string find_on_path(const std::string& program) {
    if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    for (size_t start = 0;;) {
        const size_t end = dirs.find(':', start);
        std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        struct stat st;
        if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (end == std::string::npos) return "";
        start = end + 1;
    }
}

std::string TempDir::pattern() {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/oshrun.XXXXXX";
}

namespace {

// The watchdog: a process of its own, forked by the first TempDir, reading records from a pipe whose only writer
// is oshrun: 'D' + a NUL-terminated path (a directory to remove), 'P' or 'G' + a pid (a process, or the process
// group it leads, to kill), 'Q'
// (oshrun ends normally: exit). End of file without 'Q' means oshrun died: it kills and removes what it was
// told, then exits. It ignores the terminal's signals, which are oshrun's to handle.
int g_watchdog_fd = -1;
pid_t g_watchdog_pid = -1;
int g_temp_dirs = 0;  // live TempDirs: the watchdog runs while there is one

[[noreturn]] void watchdog_main(int fd) {
    for (int s : kCaught) signal(s, SIG_IGN);
    std::vector<pid_t> targets;  // kill()'s argument: a pid, or minus a process group's
    std::vector<std::string> dirs;
    std::string pending;
    char buf[4096];
    for (;;) {
        const ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // oshrun is gone (or the pipe broke): clean up
        pending.append(buf, size_t(got));
        for (;;) {
            if (pending.empty()) break;
            if (pending[0] == 'Q') _exit(0);
            if (pending[0] == 'P' || pending[0] == 'G') {
                if (pending.size() < 1 + sizeof(pid_t)) break;
                pid_t pid;
                std::memcpy(&pid, pending.data() + 1, sizeof pid);
                targets.push_back(pending[0] == 'G' ? -pid : pid);
                pending.erase(0, 1 + sizeof pid);
            } else if (pending[0] == 'D') {
                const size_t end = pending.find('\0', 1);
                if (end == std::string::npos) break;
                dirs.push_back(pending.substr(1, end - 1));
                pending.erase(0, end + 1);
            } else {
                pending.clear();  // cannot happen: only oshrun writes
            }
        }
    }
    for (pid_t t : targets) kill(t, SIGKILL);
    for (const std::string& d : dirs) {
        std::error_code ec;
        std::filesystem::remove_all(d, ec);
    }
    _exit(0);
}

void watchdog_send(const std::string& record) {
    if (g_watchdog_fd < 0) return;
    for (size_t done = 0; done < record.size();) {
        const ssize_t n = send(g_watchdog_fd, record.data() + done, record.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the watchdog is gone: nothing more it can do for us
        done += size_t(n);
    }
}

void start_watchdog() {
    if (g_watchdog_fd >= 0) return;
    // A socket rather than a pipe: send(MSG_NOSIGNAL) to a watchdog that died fails instead of raising SIGPIPE.
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw Failure(std::string("socketpair: ") + std::strerror(errno), 1);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw Failure(std::string("fork: ") + std::strerror(errno), 1);
    if (pid == 0) {
        close(fds[1]);
        setpgid(0, 0);  // not in the terminal's foreground group: ^C is oshrun's
        watchdog_main(fds[0]);
    }
    close(fds[0]);
    g_watchdog_fd = fds[1];
    g_watchdog_pid = pid;
}

void stop_watchdog() {
    if (g_watchdog_fd < 0) return;
    watchdog_send("Q");
    close(g_watchdog_fd);
    g_watchdog_fd = -1;
    int status;
    while (waitpid(g_watchdog_pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_watchdog_pid = -1;
}

}  // namespace

void watch_child(pid_t pid, bool own_group) {
    std::string record = own_group ? "G" : "P";
    record.append(reinterpret_cast<const char*>(&pid), sizeof pid);
    watchdog_send(record);
}

void tie_child_to(pid_t parent, bool own_group) {
    if (own_group) setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // oshrun died before the line above: do not run on without it
}

TempDir::TempDir() {
    std::string buf = pattern();
    if (!mkdtemp(buf.data()))
        throw Failure("cannot create a temporary directory " + pattern() + ": " + std::strerror(errno), 1);
    path_ = buf;
    try {
        start_watchdog();
        ++g_temp_dirs;
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
        throw;
    }
    watchdog_send("D" + path_ + std::string(1, '\0'));
}

TempDir::~TempDir() {
    std::error_code ec;  // nothing to do about a failure here
    std::filesystem::remove_all(path_, ec);
    if (--g_temp_dirs == 0) stop_watchdog();
}

std::string shell_join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) {
        if (!out.empty()) out += ' ';
        const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_./=,:+@%") == std::string::npos;
        if (plain) {
            out += w;
            continue;
        }
        out += '\'';
        for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

}  // namespace oshrun
