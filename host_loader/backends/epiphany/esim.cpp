// The esim mesh (see esim.hpp for how a run goes and what it relies on in the simulator).
#include "esim.hpp"

#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <epiphany/boot_block.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "core/common.hpp"
#include "core/process.hpp"

namespace oshrun {

namespace {

constexpr uint64_t kHeader = MiB;        // the session's header
constexpr uint64_t kCoreState = MiB;     // per core: simulator state, then its window
constexpr uint64_t kCoreWindow = MiB;
constexpr uint64_t kReadyOffset = 8;     // uint32: processes at the start barrier
constexpr uint32_t kLocalSize = SHMEM_EP_LOCAL_SIZE;

std::string coreid_text(unsigned coreid) { return hex(coreid); }

// What a core of the workgroup without a PE runs: IDLE, and IDLE again should anything wake it.
const std::vector<uint8_t> kIdleLoop = {0xb2, 0x01, 0xe0, 0xff};  // 0: idle; 2: b 0

}  // namespace

std::vector<uint8_t> make_esim_elf(const std::vector<EsimLoad>& loads) {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the ELF is written in host order: little-endian");
    const size_t n = loads.size();
    const char shstr[] = "\0.shstrtab\0.load";  // names at 1 and 11
    const size_t phoff = sizeof(Elf32_Ehdr);
    size_t data = phoff + n * sizeof(Elf32_Phdr);
    std::vector<size_t> at(n);
    for (size_t i = 0; i < n; ++i) {
        data = align_up(data, 8);
        at[i] = data;
        data += loads[i].bytes.size();
    }
    const size_t str_at = data;
    const size_t shoff = align_up(str_at + sizeof shstr, 4);
    std::vector<uint8_t> f(shoff + (n + 2) * sizeof(Elf32_Shdr), 0);

    Elf32_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = kEmAdaptevaEpiphany;
    eh.e_version = EV_CURRENT;
    eh.e_entry = 0;
    eh.e_phoff = n ? phoff : 0;
    eh.e_shoff = uint32_t(shoff);
    eh.e_ehsize = sizeof(Elf32_Ehdr);
    eh.e_phentsize = sizeof(Elf32_Phdr);
    eh.e_phnum = uint16_t(n);
    eh.e_shentsize = sizeof(Elf32_Shdr);
    eh.e_shnum = uint16_t(n + 2);
    eh.e_shstrndx = 1;
    std::memcpy(f.data(), &eh, sizeof eh);

    for (size_t i = 0; i < n; ++i) {
        Elf32_Phdr ph{};
        ph.p_type = PT_LOAD;
        ph.p_offset = uint32_t(at[i]);
        ph.p_vaddr = ph.p_paddr = loads[i].addr;
        ph.p_filesz = ph.p_memsz = uint32_t(loads[i].bytes.size());
        ph.p_flags = PF_R | PF_W | PF_X;
        ph.p_align = 8;
        std::memcpy(&f[phoff + i * sizeof ph], &ph, sizeof ph);
        std::copy(loads[i].bytes.begin(), loads[i].bytes.end(), f.begin() + long(at[i]));
    }
    std::memcpy(&f[str_at], shstr, sizeof shstr);
    Elf32_Shdr sh{};
    sh.sh_name = 1;
    sh.sh_type = SHT_STRTAB;
    sh.sh_offset = uint32_t(str_at);
    sh.sh_size = sizeof shstr;
    sh.sh_addralign = 1;
    std::memcpy(&f[shoff + sizeof sh], &sh, sizeof sh);
    for (size_t i = 0; i < n; ++i) {
        Elf32_Shdr s{};
        s.sh_name = 11;
        s.sh_type = SHT_PROGBITS;
        s.sh_flags = SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR;
        s.sh_addr = loads[i].addr;
        s.sh_offset = uint32_t(at[i]);
        s.sh_size = uint32_t(loads[i].bytes.size());
        s.sh_addralign = 1;
        std::memcpy(&f[shoff + (i + 2) * sizeof s], &s, sizeof s);
    }
    return f;
}

uint64_t esim_session_size(unsigned rows, unsigned cols) {
    return kHeader + uint64_t(rows) * cols * (kCoreState + kCoreWindow) + kEpExternalSize;
}

uint64_t esim_session_offset(unsigned first_coreid, unsigned rows, unsigned cols, uint32_t global, uint64_t n) {
    if (global >= kEpExternalBase && global - kEpExternalBase + n <= kEpExternalSize)
        return kHeader + uint64_t(rows) * cols * (kCoreState + kCoreWindow) + (global - kEpExternalBase);
    const unsigned coreid = global >> 20, local = global & (kCoreWindow - 1);
    const unsigned row = coreid >> 6, col = coreid & 63, row0 = first_coreid >> 6, col0 = first_coreid & 63;
    if (row < row0 || row >= row0 + rows || col < col0 || col >= col0 + cols || local + n > kLocalSize)
        throw Failure("esim: " + hex(global) + " + " + std::to_string(n) + " bytes is neither the SRAM of a core of the " +
                      std::to_string(rows) + "x" + std::to_string(cols) + " workgroup at " + hex(first_coreid) +
                      " nor external DRAM " + hex(kEpExternalBase) + ".." + hex(kEpExternalBase + kEpExternalSize),
                      1);
    const uint64_t index = uint64_t(row - row0) * cols + (col - col0);
    return kHeader + index * (kCoreState + kCoreWindow) + kCoreState + local;
}

namespace {

// n random bytes as hex (getrandom: the kernel's generator, never a guessable fallback).
std::string random_hex(size_t n) {
    std::vector<unsigned char> bytes(n);
    size_t got = 0;
    while (got < n) {
        const ssize_t r = getrandom(bytes.data() + got, n - got, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw Failure(std::string("getrandom: ") + std::strerror(errno), 1);
        got += size_t(r);
    }
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (unsigned char b : bytes) s += digits[b >> 4], s += digits[b & 15];
    return s;
}

class EsimMesh final : public Mesh {
public:
    EsimMesh(const EpiphanyPlan& plan, std::string simulator, bool verbose, double timeout)
        : simulator_(std::move(simulator)), verbose_(verbose), timeout_(timeout),
          first_(plan.first_row << 6 | plan.first_col), rows_(plan.rows), cols_(plan.cols),
          loads_(size_t(plan.rows) * plan.cols) {
        // The session file is /dev/shm/esim.u.<uid>-<session>, created by the simulator processes, which join a
        // file of that name if there is one: the name must be one nobody else can guess and create first.
        session_ = "oshrun-" + random_hex(8);
        shm_name_ = "/esim.u." + std::to_string(getuid()) + "-" + session_;
        for (const EpiphanyPe& pe : plan.pes) pe_of_core_[pe.coreid] = pe.pe;
        if (const char* extra = std::getenv("OSHRUN_ESIM_ARGS")) {
            std::istringstream words(extra);
            for (std::string w; words >> w;) extra_args_.push_back(w);
        }
    }
    ~EsimMesh() override { stop(); }

    void reset(const std::vector<unsigned>&) override {}  // a fresh session: every core idle until start()

    void write(uint32_t global, const void* data, size_t n) override {
        const auto* p = static_cast<const uint8_t*>(data);
        if (map_) {
            std::memcpy(map_ + offset(global, n), p, n);
            return;
        }
        if (started_) throw Failure("esim: write to " + hex(global) + " before the session is ready", 1);
        (void)offset(global, n);  // refuse what the session does not hold now, not at start
        // Before the start: into the ELF of the core that owns the bytes (external DRAM: the first core's).
        const bool external = global >= kEpExternalBase;
        const size_t core = external ? 0 : index(global >> 20);
        const uint32_t addr = external ? global : global & (kCoreWindow - 1);
        std::vector<EsimLoad>& l = loads_[core];
        if (!l.empty() && l.back().addr + l.back().bytes.size() == addr)
            l.back().bytes.insert(l.back().bytes.end(), p, p + n);  // the run loop writes big zero runs in pieces
        else
            l.push_back({addr, std::vector<uint8_t>(p, p + n)});
    }

    void read(uint32_t global, void* data, size_t n) override {
        if (!map_) throw Failure("esim: read of " + hex(global) + " before the session is ready", 1);
        check_children();
        std::memcpy(data, map_ + offset(global, n), n);
    }

    void start(const std::vector<unsigned>&) override {
        // A file of our random name already there is someone's attempt to take the session over: refuse it.
        const int stale = shm_open(shm_name_.c_str(), O_RDONLY, 0);
        if (stale >= 0) {
            close(stale);
            throw Failure("esim: the session file /dev/shm" + shm_name_ + " exists before the simulators started; "
                          "refusing a session another process prepared", 1);
        }
        started_ = true;
        dir_ = std::make_unique<TempDir>();
        for (unsigned r = 0; r < rows_; ++r)
            for (unsigned c = 0; c < cols_; ++c) spawn(r, c);
        wait_ready();
    }

    void stop() override {
        for (const Child& ch : children_)
            if (ch.pid > 0) kill(ch.pid, SIGKILL);
        for (Child& ch : children_)
            if (ch.pid > 0) waitpid(ch.pid, nullptr, 0), ch.pid = -1;
        if (map_) munmap(map_, size_t(map_size_)), map_ = nullptr;
        if (started_) shm_unlink(shm_name_.c_str());
        dir_.reset();
    }

private:
    struct Child {
        pid_t pid;
        unsigned coreid;
        std::string log;
    };
    std::string simulator_;
    std::vector<std::string> extra_args_;
    bool verbose_;
    double timeout_;  // oshrun's time limit (<= 0: none), which the start-up wait honours too
    unsigned first_, rows_, cols_;
    std::vector<std::vector<EsimLoad>> loads_;  // per core of the workgroup, row-major
    std::map<unsigned, unsigned> pe_of_core_;
    std::string session_, shm_name_;
    std::unique_ptr<TempDir> dir_;
    std::vector<Child> children_;
    bool started_ = false;
    uint8_t* map_ = nullptr;
    uint64_t map_size_ = 0;
    std::chrono::steady_clock::time_point checked_{};

    size_t index(unsigned coreid) const { return size_t((coreid >> 6) - (first_ >> 6)) * cols_ + ((coreid & 63) - (first_ & 63)); }
    uint64_t offset(uint32_t global, size_t n) const { return esim_session_offset(first_, rows_, cols_, global, n); }

    std::string who(unsigned coreid) const {
        const auto it = pe_of_core_.find(coreid);
        return "core " + coreid_text(coreid) +
               (it == pe_of_core_.end() ? std::string(" (no PE: idle)") : " (PE " + std::to_string(it->second) + ")");
    }

    void spawn(unsigned r, unsigned c) {
        const unsigned coreid = ((first_ >> 6) + r) << 6 | ((first_ & 63) + c);
        const size_t i = size_t(r) * cols_ + c;
        std::vector<EsimLoad> loads = loads_[i];
        if (!pe_of_core_.count(coreid)) loads.insert(loads.begin(), EsimLoad{0, kIdleLoop});
        const std::string base = dir_->path() + "/core-" + coreid_text(coreid);
        {
            const std::vector<uint8_t> elf = make_esim_elf(loads);
            std::ofstream out(base + ".elf", std::ios::binary);
            out.write(reinterpret_cast<const char*>(elf.data()), long(elf.size()));
            if (!out) throw Failure("esim: cannot write " + base + ".elf", 1);
        }
        char id[16], first[16];
        std::snprintf(id, sizeof id, "0x%x", coreid);
        std::snprintf(first, sizeof first, "0x%x", first_);
        std::vector<std::string> argv = {simulator_, "--e-session-name", session_, "--e-coreid", id,
                                               "--e-rows", std::to_string(rows_), "--e-cols", std::to_string(cols_),
                                               "--e-first-core", first, "--e-core-mem", "32K",
                                               "--environment", "virtual", "--e-external-fetch"};
        // OSHRUN_ESIM_ARGS: more simulator options for every core, split at spaces (e.g. "--trace-insn").
        argv.insert(argv.end(), extra_args_.begin(), extra_args_.end());
        argv.push_back(base + ".elf");
        if (verbose_) {
            std::string line = "oshrun: esim:";
            for (const std::string& a : argv) line += " " + a;
            std::fprintf(stderr, "%s\n", line.c_str());
        }
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        // OSHRUN_ESIM_LOG_DIR: keep each core's simulator output there (core-<coreid>.log), e.g. with a trace.
        const char* log_dir = std::getenv("OSHRUN_ESIM_LOG_DIR");
        const std::string log = (log_dir ? std::string(log_dir) + "/core-" + coreid_text(coreid) : base) + ".log";
        const pid_t parent = getpid();
        const pid_t pid = fork();
        if (pid < 0) throw Failure(std::string("esim: fork: ") + std::strerror(errno), 127);
        if (pid == 0) {
            tie_child_to(parent, true);  // the terminal's ^C reaches oshrun, which stops every core; dies with oshrun
            // A new file, never through a link someone left in its place (in OSHRUN_ESIM_LOG_DIR, the last run's
            // log is replaced: unlinking removes a symbolic link itself, not what it points to).
            if (log_dir) unlink(log.c_str());
            const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd >= 0) dup2(fd, 1), dup2(fd, 2);
            const int null = open("/dev/null", O_RDONLY);
            if (null >= 0) dup2(null, 0);
            execv(args[0], args.data());
            std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
            _exit(127);
        }
        setpgid(pid, pid);  // as the child does itself: whichever runs first
        watch_child(pid, true);
        children_.push_back({pid, coreid, log});
    }

    // Every process loaded and at the start barrier: then the session file is complete and ours to map.
    void wait_ready() {
        const uint64_t want = esim_session_size(rows_, cols_);
        const unsigned cores = rows_ * cols_;
        const auto began = std::chrono::steady_clock::now();
        const auto give_up = began + std::chrono::seconds(60);
        for (;;) {
            check_children(true);
            if (const int sig = SignalCatcher::received())
                throw Failure(std::string("interrupted by ") + strsignal(sig) + " while the simulators started",
                              128 + sig);
            if (timeout_ > 0 && std::chrono::steady_clock::now() - began >= std::chrono::duration<double>(timeout_))
                throw Failure("timeout: the simulators did not start within the time limit", 124);
            const int fd = shm_open(shm_name_.c_str(), O_RDWR | O_NOFOLLOW, 0);
            if (fd >= 0) {
                struct stat st;
                if (fstat(fd, &st) == 0 && (st.st_uid != geteuid() || !S_ISREG(st.st_mode))) {
                    close(fd);
                    throw Failure("esim: the session file /dev/shm" + shm_name_ + " belongs to uid " +
                                      std::to_string(st.st_uid) + ", not to oshrun's user (" +
                                      std::to_string(geteuid()) + "): refusing a session another user made",
                                  1);
                }
                // Ours: nobody else may read or write it (the simulator may have made it readable by all).
                if ((st.st_mode & 077) != 0) fchmod(fd, 0600);
                if (uint64_t(st.st_size) == want) {
                    void* p = mmap(nullptr, size_t(want), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                    close(fd);
                    if (p == MAP_FAILED)
                        throw Failure("esim: cannot map the session file /dev/shm" + shm_name_ + ": " +
                                      std::strerror(errno), 1);
                    uint32_t ready;
                    std::memcpy(&ready, static_cast<uint8_t*>(p) + kReadyOffset, sizeof ready);
                    if (ready >= cores) {
                        map_ = static_cast<uint8_t*>(p);
                        map_size_ = want;
                        return;
                    }
                    munmap(p, size_t(want));
                } else {
                    if (fstat(fd, &st) == 0 && uint64_t(st.st_size) > want)
                        throw Failure("esim: the session file /dev/shm" + shm_name_ + " is " +
                                      std::to_string(st.st_size) + " bytes, not the " + std::to_string(want) +
                                      " expected for " + std::to_string(rows_) + "x" + std::to_string(cols_) +
                                      " cores and 32 MiB of external DRAM at " + hex(kEpExternalBase) +
                                      ": is this simulator's default external RAM different?", 1);
                    close(fd);
                }
            }
            if (std::chrono::steady_clock::now() > give_up)
                throw Failure("esim: the " + std::to_string(cores) + " simulator processes did not all start within "
                              "60 s (session " + session_ + ")", 1);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    // A simulator process that ended on its own ends the run: the cores never end theirs (they idle when done).
    void check_children(bool now = false) {
        const auto t = std::chrono::steady_clock::now();
        if (!now && t - checked_ < std::chrono::milliseconds(100)) return;
        checked_ = t;
        for (Child& ch : children_) {
            int status = 0;
            if (ch.pid <= 0 || waitpid(ch.pid, &status, WNOHANG) != ch.pid) continue;
            ch.pid = -1;
            std::ifstream in(ch.log);
            std::stringstream text;
            text << in.rdbuf();
            std::string out = text.str();
            if (out.size() > 2000) out = "..." + out.substr(out.size() - 2000);
            const std::string how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                                      : "was killed by signal " + std::to_string(WTERMSIG(status));
            throw Failure("esim: the simulator of " + who(ch.coreid) + " " + how + " before the run ended" +
                              (out.empty() ? std::string(" (it printed nothing)") : "; it printed:\n" + out),
                          WIFEXITED(status) && WEXITSTATUS(status) == 127 ? 127 : 1);
        }
    }
};

}  // namespace

std::unique_ptr<Mesh> open_esim(const Target&, const EpiphanyPlan& plan, const std::string& simulator, bool verbose,
                                double timeout) {
    const std::string wanted = simulator.empty() ? kEsimSimulator : simulator;
    const std::string path = find_on_path(wanted);
    if (path.empty())
        throw Failure(simulator.empty()
                          ? std::string(kEsimSimulator) + " not found on PATH: the esim backend runs the Epiphany "
                            "simulator, one " + kEsimSimulator + " per core; install it (Adapteva's epiphany-binutils-gdb "
                            "builds it with its multicore simulator, esim) or name it with --emulator PATH"
                          : "--emulator " + simulator + ": not found or not executable",
                      127);
    return std::make_unique<EsimMesh>(plan, path, verbose, timeout);
}

}  // namespace oshrun
