// The linux target's backend: every PE is a process of this host, forked here, with one shared memory object for
// the symmetric memory of all the PEs of its node (crt/linux/crt.cpp maps it; port/linux/shmem_port.hpp says how).
// A run is one node, or with --nodes K the PEs split into K emulated nodes (split_nodes), to test multi-node
// support on one host.
//
// A run: per node a memfd "oshrun-symmetric" (anonymous, so no other process can open it; close-on-exec here,
// inherited by that node's PEs alone) holding a control page; with --nodes, one memfd "oshrun-board" more, empty,
// inherited by every PE (the PEs' start-up exchange: the library sizes and lays it out); N children, each with its
// own stdout and stderr pipes and stdin from /dev/null, pinned to a CPU each when there are enough, ASLR off (so that
// every PE's static data has the same addresses, as on a bare-metal target), exec'd with oshrun's environment plus
// the PEs' (SHMEM_* and -x), with --nodes UCX_TLS=tcp and UCX_WARN_UNUSED_ENV_VARS=n unless set there, and
// SHMEM_LINUX_* (with --nodes: SHMEM_LINUX_NODE_FIRST, SHMEM_LINUX_NODE_NPES, SHMEM_LINUX_BOARD too). oshrun then
// relays each PE's output line by line (never interleaved) and waits for the PEs' ends through pidfds:
//   - a PE that ends with 0 is done; the run ends with 0 when all are;
//   - the first PE that ends otherwise ends the run: with the status in an exit word if a PE set it
//     (shmem_global_exit, a library report, a fault report: in its own node's control page), that of the ended PE's
//     node first, else with that PE's exit status, or, for a PE killed by a signal, with 128 + the signal after a
//     report naming the PE and the signal; the other PEs are killed;
//   - --timeout, or a signal to oshrun, kills every PE (124, 128 + the signal).
// No PE outlives oshrun: each dies with it (PR_SET_PDEATHSIG) and is registered with the watchdog
// (core/process.hpp).
//
// With a launcher (--launcher mpirun|srun, or --hosts/--hostfile: mpirun) none of this: oshrun execs the launcher
// with the program and the PEs' variables (plan_launch), which starts the PEs on their hosts; the library learns
// its PE from PMIx there, and the launcher's exit status is the run's.
#include "linux.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "core/common.hpp"
#include "core/console.hpp"
#include "core/process.hpp"

extern char** environ;

namespace oshrun {

namespace {

struct Fd {
    int fd = -1;
    Fd() = default;
    explicit Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd >= 0) close(fd);
    }
    void reset() {
        if (fd >= 0) close(fd);
        fd = -1;
    }
};

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw Failure(path + ": " + what, 2); }

#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
#elif defined(__arm__)
constexpr unsigned kHostMachine = EM_ARM;
#else
constexpr unsigned kHostMachine = EM_NONE;
#endif

// The machines whose programs run here under qemu-user when the host is another: the emulator's name, and the
// Debian cross sysroot of the program's shared libraries (QEMU_LD_PREFIX, when the user has not set it).
struct Foreign {
    unsigned machine;
    const char* qemu;
    const char* sysroot;
};
constexpr Foreign kForeign[] = {
    {EM_AARCH64, "qemu-aarch64", "/usr/aarch64-linux-gnu"},
    {EM_ARM, "qemu-arm", "/usr/arm-linux-gnueabihf"},
    {EM_X86_64, "qemu-x86_64", "/usr/x86_64-linux-gnu"},
};
const Foreign* foreign(unsigned machine) {
    for (const Foreign& f : kForeign)
        if (f.machine == machine) return &f;
    return nullptr;
}

// The qemu-user binfmt handler that runs another machine's programs here, if the kernel has one: "" if none.
std::string binfmt_handler(unsigned machine) {
    const Foreign* f0 = foreign(machine);
    const char* name = f0 ? f0->qemu : nullptr;
    if (!name) return "";
    FILE* f = std::fopen((std::string("/proc/sys/fs/binfmt_misc/") + name).c_str(), "r");
    if (!f) return "";
    char line[64] = {};
    const bool enabled = std::fgets(line, sizeof line, f) && std::strncmp(line, "enabled", 7) == 0;
    std::fclose(f);
    return enabled ? name : "";
}

bool has_symbol(Elf* e, const char* name, bool& had_table) {
    had_table = false;
    for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || sh.sh_entsize == 0)
            continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (!data) continue;
        if (sh.sh_type == SHT_SYMTAB) had_table = true;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(data, int(i), &sym)) break;
            const char* s = elf_strptr(e, sh.sh_link, sym.st_name);
            if (s && std::strcmp(s, name) == 0 && sym.st_shndx != SHN_UNDEF) return true;
        }
    }
    return false;
}

// The note every libshmem program for this target carries (crt/linux/crt.cpp): owner "libshmem", type 1,
// descriptor "linux". In the notes of the program headers (what the kernel and strip keep), else of the sections.
bool has_libshmem_note(Elf* e) {
    const auto scan = [&](Elf_Data* data) {
        if (!data) return false;
        GElf_Nhdr nh;
        size_t name_off = 0, desc_off = 0;
        for (size_t off = 0; (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0;) {
            const char* base = static_cast<const char*>(data->d_buf);
            if (nh.n_type == 1 && nh.n_namesz == 9 && std::memcmp(base + name_off, "libshmem", 9) == 0 &&
                nh.n_descsz >= 6 && std::memcmp(base + desc_off, "linux", 6) == 0)
                return true;
        }
        return false;
    };
    size_t nph = 0;
    if (elf_getphdrnum(e, &nph) == 0)
        for (size_t i = 0; i < nph; ++i) {
            GElf_Phdr ph;
            if (gelf_getphdr(e, int(i), &ph) && ph.p_type == PT_NOTE &&
                scan(elf_getdata_rawchunk(e, off_t(ph.p_offset), size_t(ph.p_filesz), ELF_T_NHDR)))
                return true;
        }
    for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE && scan(elf_getdata(scn, nullptr))) return true;
    }
    return false;
}

}  // namespace

bool is_host_program(const std::string& program) {
    Fd fd(open(program.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    struct stat st;
    if (fd.fd < 0 || fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    unsigned char h[20] = {};
    if (pread(fd.fd, h, sizeof h, 0) != ssize_t(sizeof h) || std::memcmp(h, ELFMAG, SELFMAG) != 0 ||
        h[EI_DATA] != ELFDATA2LSB)
        return false;
    const unsigned machine = unsigned(h[18]) | unsigned(h[19]) << 8;  // e_machine, little-endian
    return machine == kHostMachine && kHostMachine != EM_NONE;
}

Image load_linux_image(const std::string& path, const Target& t) {
    Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st;
    if (fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) refuse(path, "not a regular file");
    if (access(path.c_str(), X_OK) != 0) refuse(path, "not executable (chmod +x, or build it with oshcc)");
    if (elf_version(EV_CURRENT) == EV_NONE) throw Failure("libelf is too old", 1);
    std::unique_ptr<Elf, int (*)(Elf*)> elf(elf_begin(fd.fd, ELF_C_READ, nullptr), elf_end);
    GElf_Ehdr h;
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF || !gelf_getehdr(elf.get(), &h))
        refuse(path, "not an ELF file a Linux kernel runs");
    if (h.e_type != ET_EXEC && h.e_type != ET_DYN) refuse(path, "not an executable (ELF type " + std::to_string(h.e_type) + ")");
    // Another machine's program runs under qemu-user: through the kernel's binfmt handler, or oshrun starts
    // qemu-<machine> itself (with the Debian cross sysroot for its shared libraries, unless QEMU_LD_PREFIX says).
    std::vector<std::string> launcher;
    if (h.e_machine != kHostMachine && binfmt_handler(h.e_machine).empty()) {
        const Foreign* f = foreign(h.e_machine);
        const char* qemu = f ? f->qemu : nullptr;
        const std::string found = qemu ? find_on_path(qemu) : "";
        if (found.empty())
            refuse(path, std::string("ELF machine is ") + elf_machine_name(h.e_machine) + "; this host runs " +
                             elf_machine_name(kHostMachine) + " programs (and has neither a qemu-user binfmt handler " +
                             "nor " + (qemu ? qemu : "a qemu-user") + " on PATH for " + elf_machine_name(h.e_machine) + ")");
        launcher.push_back(found);
    }
    // Every loadable segment is in the file: the kernel maps a segment cut short and the PE dies by SIGSEGV (or
    // SIGBUS) on its first touch of the missing part.
    size_t nph = 0;
    if (elf_getphdrnum(elf.get(), &nph) != 0) refuse(path, "truncated or damaged: its program headers cannot be read");
    for (size_t i = 0; i < nph; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf.get(), int(i), &ph)) refuse(path, "truncated: program header " + std::to_string(i) + " is missing");
        if (ph.p_type == PT_LOAD && (ph.p_offset > uint64_t(st.st_size) || ph.p_filesz > uint64_t(st.st_size) - ph.p_offset))
            refuse(path, "truncated: loadable segment " + std::to_string(i) + " needs file bytes up to " +
                             std::to_string(ph.p_offset + ph.p_filesz) + ", the file has " + std::to_string(st.st_size));
    }
    // A libshmem program is known by its note, which survives strip; a program without one would run as N separate
    // one-PE programs (nothing in it reads SHMEM_LINUX_*), so it is refused.
    if (!has_libshmem_note(elf.get())) {
        bool had_table = false;
        const bool old_mark = has_symbol(elf.get(), "shmem_linux_preinit", had_table);
        refuse(path, std::string("not a libshmem program for the ") + t.name + " target (it has no libshmem note" +
                         (old_mark ? ", though it has shmem_linux_preinit: built with an older libshmem? rebuild it" : "") +
                         "); build it with oshcc --target linux or add_shmem_executable");
    }
    Image img;
    img.path = path;
    img.file_size = uint64_t(st.st_size);
    img.launcher = launcher;
    return img;
}

namespace {

struct Pe {
    pid_t pid = -1;
    Fd out, err, pidfd;
    bool ended = false;
    int status = 0;
    unsigned end = 0;  // with ended: how many PEs oshrun had reaped before this one
};

// A node's shared memory object and oshrun's mapping of its control page.
struct NodeMemory {
    Fd mem;
    void* control = MAP_FAILED;
    size_t len = 0;
    NodeMemory() = default;
    NodeMemory(const NodeMemory&) = delete;
    NodeMemory& operator=(const NodeMemory&) = delete;
    ~NodeMemory() {
        if (control != MAP_FAILED) munmap(control, len);
    }
    // (PE + 1) << 8 | status, set by a PE of this node that ended the run (crt/linux/crt.cpp's Control); 0 if none.
    uint32_t exit_word() const { return *static_cast<const volatile uint32_t*>(control); }
};

std::string signal_text(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return std::to_string(sig) + " (" + (abbrev ? std::string("SIG") + abbrev + ", " : "") + strsignal(sig) + ")";
}

int online_cpus() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}

// The k-th CPU this process may run on.
int nth_cpu(int k) {
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set) && k-- == 0) return c;
    return -1;
}

// Reads what PE pe's stdout (is_err false) or stderr pipe holds now into the console; false at end of file.
bool relay(int fd, Console& console, unsigned pe, bool is_err, size_t max_reads = 16) {
    return drain(fd, [&](const char* bytes, size_t n) { console.feed_text(pe, is_err, bytes, n); }, max_reads);
}

}  // namespace

std::vector<LinuxNode> split_nodes(unsigned npes, unsigned k) {
    std::vector<LinuxNode> nodes;
    for (unsigned j = 0, first = 0; j < k; ++j) {
        const unsigned size = npes / k + (j < npes % k ? 1 : 0);
        nodes.push_back({first, size});
        first += size;
    }
    return nodes;
}

unsigned LinuxPlan::node_of(unsigned pe) const {
    unsigned j = 0;
    while (j + 1 < nodes.size() && pe >= nodes[j + 1].first) ++j;
    return j;
}

LinuxPlan plan_linux(const Target&, const Image&, const Request& req) {
    LinuxPlan plan;
    plan.npes = req.npes;
    plan.heap = symmetric_size(req).value_or(kLinuxDefaultHeap);
    plan.cpus = online_cpus();
    plan.pin = int(plan.npes) <= plan.cpus;
    // A waiter polls a while before it sleeps where it has a CPU of its own.
    plan.spin = plan.pin && plan.npes > 1 ? 2000 : 0;
    // Oversubscribed, it yields its CPU first, at least this often and then for an adaptive time (port/linux):
    // the PE it waits for may be the one that runs next here.
    plan.yields = plan.pin ? 0 : 64;
    plan.argv = req.argv;
    plan.gdb_pe = req.gdb_pe;
    if (plan.gdb_pe && *plan.gdb_pe >= plan.npes)
        throw Failure("--gdb " + std::to_string(*plan.gdb_pe) + ": there are PEs 0 to " +
                      std::to_string(plan.npes - 1), 2);
    const unsigned k = req.nodes.value_or(1);
    if (k < 1 || k > plan.npes)
        throw Failure("--nodes " + std::to_string(k) + ": expected a number of nodes from 1 to " +
                      std::to_string(plan.npes), 2);
    plan.nodes = split_nodes(plan.npes, k);
    plan.emulated_nodes = req.nodes.has_value();
    plan.node_prefix = req.node_prefix;
    return plan;
}

std::vector<std::string> LinuxPlan::command(unsigned pe, const std::vector<std::string>& launcher) const {
    std::vector<std::string> words;
    const std::string node = std::to_string(node_of(pe));
    for (std::string w : node_prefix) {
        for (size_t at = w.find("{node}"); at != std::string::npos; at = w.find("{node}", at + node.size()))
            w.replace(at, 6, node);
        words.push_back(std::move(w));
    }
    words.insert(words.end(), launcher.begin(), launcher.end());
    words.insert(words.end(), argv.begin(), argv.end());
    return words;
}

std::string linux_plan_text(const Target& t, const LinuxPlan& plan, const Image&) {
    char line[256];
    std::snprintf(line, sizeof line, "target %s: %u PEs as processes, symmetric heap %s each, %d CPUs%s\n", t.name,
                  plan.npes, size_text(plan.heap).c_str(), plan.cpus,
                  plan.pin ? ", PE k pinned to CPU k" : " (oversubscribed: not pinned)");
    std::string out = line;
    if (plan.emulated_nodes) {
        std::string ranges;
        for (const LinuxNode& node : plan.nodes) {
            ranges += (ranges.empty() ? "" : ", ") + std::to_string(node.first);
            if (node.npes > 1) ranges += "-" + std::to_string(node.first + node.npes - 1);
        }
        out += "nodes: " + std::to_string(plan.nodes.size()) + " (PEs " + ranges + ")\n";
    }
    for (unsigned k = 0; k < plan.npes; ++k)
        out += "pe " + std::to_string(k) +
               (plan.emulated_nodes ? " (node " + std::to_string(plan.node_of(k)) + ")" : std::string()) + ": " +
               shell_join(plan.command(k, {})) + (plan.gdb_pe && *plan.gdb_pe == k ? " (under gdb)" : "") +
               "\n";
    return out;
}

namespace {

// A size as the library reads SHMEM_SYMMETRIC_SIZE (crt/linux/crt.cpp: a whole number with K, M or G): oshrun takes
// fractions and T too, which the library would not.
std::string size_word(uint64_t bytes) {
    if (bytes != 0 && bytes % GiB == 0) return std::to_string(bytes / GiB) + "G";
    if (bytes != 0 && bytes % MiB == 0) return std::to_string(bytes / MiB) + "M";
    if (bytes != 0 && bytes % KiB == 0) return std::to_string(bytes / KiB) + "K";
    return std::to_string(bytes);
}

std::string name_of(const std::string& assignment) { return assignment.substr(0, assignment.find('=')); }

// oshrun's own SHMEM_LINUX_* (the PEs it forks get them) mean nothing to a PE a launcher starts and would make it
// take oshrun's start-up: never passed on, but SHMEM_LINUX_EMULATED_NODES, which the library reads under a launcher.
bool oshruns_own(const std::string& name) {
    return name.rfind("SHMEM_LINUX_", 0) == 0 && name != "SHMEM_LINUX_EMULATED_NODES";
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ",") + w;
    return out;
}

}  // namespace

std::string launcher_of(const Request& req) {
    if (!req.launcher.empty()) return req.launcher;
    return req.hosts.empty() && req.hostfile.empty() ? "" : "mpirun";
}

LaunchPlan plan_launch(const Request& req, const Image& img, const std::vector<std::string>& host_env) {
    LaunchPlan plan;
    plan.launcher = launcher_of(req);
    const bool mpirun = plan.launcher == "mpirun";
    const std::string with = "not with a launcher (" + plan.launcher + ")";
    if (req.gdb_pe)
        throw Failure("--gdb: " + with + ": " + plan.launcher + " starts the PEs on their hosts, where oshrun cannot " +
                      "run one under gdb", 2);
    if (!img.launcher.empty())
        throw Failure(req.program + ": " + with + ": the program runs here under " + img.launcher[0] + ", and " +
                      plan.launcher + " starts programs of its hosts' own machine", 2);
    if (!mpirun && !req.hostfile.empty())
        throw Failure("--hostfile: not with srun (it is an Open MPI hostfile; srun's --nodefile reads another "
                      "format): give the hosts with --hosts a,b,... (srun --nodelist)", 2);
    if (!mpirun && !req.console.output_dir.empty())
        throw Failure("--output-filename: not with srun, which names its per-task output files by its own "
                      "--output pattern; run srun yourself for that", 2);
    if (!req.hostfile.empty() && access(req.hostfile.c_str(), R_OK) != 0)
        throw Failure("--hostfile " + req.hostfile + ": cannot read it: " + std::strerror(errno), 2);

    // What the run itself sets, then oshrun's -x (the last of a name wins), then (mpirun) the variables of
    // oshrun's environment that every PE gets, by name.
    std::vector<std::string> run_vars;
    if (const std::optional<uint64_t> heap = symmetric_size(req))
        run_vars.push_back("SHMEM_SYMMETRIC_SIZE=" + size_word(*heap));
    if (req.nodes) run_vars.push_back("SHMEM_LINUX_EMULATED_NODES=" + std::to_string(*req.nodes));
    const auto set_by_run = [&](const std::string& name) { return env_value(run_vars, name) != nullptr; };
    std::vector<std::string> exports;
    for (size_t i = 0; i < req.exports.size(); ++i) {
        const EnvExport& x = req.exports[i];
        bool later = false;
        for (size_t j = i + 1; j < req.exports.size(); ++j) later = later || req.exports[j].name == x.name;
        if (later || set_by_run(x.name)) continue;
        const char* v = x.value ? x.value->c_str() : env_value(host_env, x.name);
        if (!v) throw Failure("-x " + x.name + ": " + x.name + " is not set in oshrun's environment; give its value " +
                              "with -x " + x.name + "=VALUE", 2);
        exports.push_back(x.name + "=" + v);
    }
    std::vector<std::string> passed;  // names
    if (mpirun)
        for (const std::string& e : host_env) {
            const std::string name = name_of(e);
            if ((name.rfind("SHMEM_", 0) == 0 || name.rfind("UCX_", 0) == 0) && !oshruns_own(name) &&
                !set_by_run(name) && !env_value(exports, name))
                passed.push_back(name);
        }
    std::sort(passed.begin(), passed.end());
    passed.erase(std::unique(passed.begin(), passed.end()), passed.end());

    const char* path = env_value(host_env, mpirun ? "OSHRUN_MPIRUN" : "OSHRUN_SRUN");
    plan.argv = {path && *path ? path : plan.launcher};
    const double timeout = req.timeout.value_or(0);
    if (mpirun) {
        plan.argv.insert(plan.argv.end(), {"-np", std::to_string(req.npes)});
        if (!req.hosts.empty()) plan.argv.insert(plan.argv.end(), {"--host", joined(req.hosts)});
        if (!req.hostfile.empty()) plan.argv.insert(plan.argv.end(), {"--hostfile", req.hostfile});
        if (req.console.tag_output) plan.argv.push_back("--tag-output");
        if (!req.console.output_dir.empty())
            plan.argv.insert(plan.argv.end(), {"--output-filename", req.console.output_dir});
        // mpirun's limit is whole seconds; at it, mpirun ends the job and exits with 110 (measured: Open MPI 4.1.4).
        if (timeout > 0)
            plan.argv.insert(plan.argv.end(), {"--timeout", std::to_string((unsigned long long)std::ceil(timeout))});
        for (const std::string& name : passed) plan.argv.insert(plan.argv.end(), {"-x", name});
        for (const std::string& e : exports) plan.argv.insert(plan.argv.end(), {"-x", e});
        for (const std::string& e : run_vars) plan.argv.insert(plan.argv.end(), {"-x", e});
    } else {
        // srun passes its whole environment on (--export=ALL, its default, said so): the variables go there, since
        // --export=NAME=VALUE cannot carry a value with a comma (UCX_TLS=shm,tcp).
        plan.argv.insert(plan.argv.end(), {"--mpi=pmix", "--export=ALL", "-n", std::to_string(req.npes)});
        if (!req.hosts.empty()) plan.argv.push_back("--nodelist=" + joined(req.hosts));
        if (req.console.tag_output) plan.argv.push_back("--label");
        // Slurm's time limit is in minutes: rounded up.
        if (timeout > 0) plan.argv.push_back("--time=" + std::to_string((unsigned long long)std::ceil(timeout / 60)));
        plan.set = exports;
        plan.set.insert(plan.set.end(), run_vars.begin(), run_vars.end());
    }
    plan.argv.insert(plan.argv.end(), req.argv.begin(), req.argv.end());

    for (const std::string& e : host_env)
        if (!oshruns_own(name_of(e)) && !env_value(plan.set, name_of(e))) plan.env.push_back(e);
    plan.env.insert(plan.env.end(), plan.set.begin(), plan.set.end());
    return plan;
}

std::string launch_text(const LaunchPlan& plan) {
    std::string out;
    for (const std::string& e : plan.set) out += name_of(e) + "=" + shell_join({e.substr(e.find('=') + 1)}) + " ";
    return out + shell_join(plan.argv);
}

namespace {

// Execs the launcher in place of oshrun (so that no oshrun process stays): its status is the run's.
[[noreturn]] void exec_launch(const LaunchPlan& plan) {
    const bool mpirun = plan.launcher == "mpirun";
    const std::string variable = mpirun ? "OSHRUN_MPIRUN" : "OSHRUN_SRUN";
    const std::string package = mpirun ? "openmpi-bin" : "slurm-client";
    const std::string path = find_on_path(plan.argv[0]);
    if (path.empty())
        throw Failure(plan.argv[0] == plan.launcher
                          ? plan.launcher + ", the launcher, is not on PATH (Debian: apt-get install " + package +
                                "; or name it with " + variable + "=PATH)"
                          : variable + "=" + plan.argv[0] + ": not a program (the launcher " + plan.launcher +
                                "; Debian: apt-get install " + package + ")",
                      127);
    std::vector<std::string> argv = plan.argv, env = plan.env;
    std::vector<char*> cargv, cenv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    for (std::string& e : env) cenv.push_back(e.data());
    cenv.push_back(nullptr);
    std::fflush(nullptr);
    execve(path.c_str(), cargv.data(), cenv.data());
    throw Failure("cannot run " + path + ": " + std::strerror(errno), 127);
}

}  // namespace

const std::vector<Target>& LinuxBackend::targets() const {
    // The host's own programs: load (load_linux_image) reads them, not load_image.
    static const std::vector<Target> list = {
        {"linux", "this host's Linux, one process per PE", 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, {}},
    };
    return list;
}

const Target* LinuxBackend::claims(const std::string& program) const {
    return is_host_program(program) ? &targets().front() : nullptr;
}

bool LinuxBackend::takes(Option o) const {
    return o == Option::symmetric_size || o == Option::gdb || o == Option::nodes || o == Option::node_prefix ||
           o == Option::launcher ||
           o == Option::hosts || o == Option::hostfile;
}

std::string LinuxBackend::help() const {
    return "linux (the target of a program of this host's machine when --target is not given):\n"
           "  --symmetric-size SIZE  symmetric heap per PE: bytes, or with a K, M, G suffix\n"
           "                         (default: $SHMEM_SYMMETRIC_SIZE, else 64M)\n"
           "  --gdb PE               run PE under gdb (gdb, else gdb-multiarch, from PATH) in this terminal; the\n"
           "                         other PEs wait for it at start-up; no time limit\n"
           "  --nodes K              K emulated nodes, to test multi-node runs on one host: each node its own\n"
           "                         shared memory, UCX over TCP between them; with a launcher, the PEs'\n"
           "                         SHMEM_LINUX_EMULATED_NODES=K\n"
           "  --node-prefix 'CMD ARG...'\n"
           "                         with --nodes: run each emulated node's PEs under CMD (its words split at\n"
           "                         spaces; {node} in a word becomes the node's number), e.g. to give each node\n"
           "                         namespaces of its own (tests/multinode/netns_smoke.sh)\n"
           "  --launcher NAME        mpirun or srun (--mpi=pmix) starts the PEs on their hosts, in oshrun's place:\n"
           "                         oshrun execs it with the run's options and the PEs' variables (-x, SHMEM_*,\n"
           "                         UCX_*), and its exit status is the run's; --dry-run prints its command line.\n"
           "                         $OSHRUN_MPIRUN, $OSHRUN_SRUN: the program to exec instead of PATH's\n"
           "  --hosts A,B,...        run on these hosts (mpirun --host, srun --nodelist); implies --launcher\n"
           "                         mpirun unless --launcher srun is given\n"
           "  --hostfile FILE        run on the hosts of mpirun's hostfile FILE; implies --launcher mpirun\n"
           "\n";
}

Image LinuxBackend::load(const Target& t, const Request& req) const { return load_linux_image(req.program, t); }

int LinuxBackend::run(const Target& t, const Image& img, const Request& req) const {
    if (!launcher_of(req).empty()) {
        const LaunchPlan launch = plan_launch(req, img, host_environment());
        if (req.dry_run) {
            std::printf("%s\n", launch_text(launch).c_str());
            return 0;
        }
        if (req.verbose) std::fprintf(stderr, "oshrun: %s\n", launch_text(launch).c_str());
        exec_launch(launch);
    }
    LinuxPlan plan = plan_linux(t, img, req);
    if (req.dry_run) {
        std::fputs(linux_plan_text(t, plan, img).c_str(), stdout);
        return 0;
    }
    if (!plan.node_prefix.empty()) {  // exec'd as the PE's program: its path
        const std::string path = find_on_path(plan.node_prefix[0]);
        if (path.empty())
            throw Failure("--node-prefix: " + plan.node_prefix[0] + " is not a program on PATH (or not executable)", 127);
        plan.node_prefix[0] = path;
    }
    const unsigned n = plan.npes;
    const uint64_t heap = plan.heap;
    const bool pin = plan.pin;
    const unsigned spin = plan.spin, yields = plan.yields;
    const std::string program = req.argv.at(0);
    std::string gdb;
    if (req.gdb_pe) {
        gdb = find_on_path("gdb");
        if (gdb.empty()) gdb = find_on_path("gdb-multiarch");
        if (gdb.empty()) throw Failure("--gdb: neither gdb nor gdb-multiarch is on PATH (Debian: apt-get install gdb)", 127);
    }

    // The shared memory, one object per node: the control page now; each PE of the node grows it to the page plus
    // a slice per PE of the node (they all agree). With --nodes, the board too, empty.
    const long page = sysconf(_SC_PAGESIZE);
    std::vector<NodeMemory> nodes(plan.nodes.size());
    for (NodeMemory& node : nodes) {
        node.mem.fd = int(syscall(SYS_memfd_create, "oshrun-symmetric", MFD_CLOEXEC));
        if (node.mem.fd < 0) throw Failure(std::string("memfd_create: ") + std::strerror(errno), 1);
        if (ftruncate(node.mem.fd, page) != 0) throw Failure(std::string("ftruncate: ") + std::strerror(errno), 1);
        node.control = mmap(nullptr, size_t(page), PROT_READ | PROT_WRITE, MAP_SHARED, node.mem.fd, 0);
        if (node.control == MAP_FAILED) throw Failure(std::string("mmap: ") + std::strerror(errno), 1);
        node.len = size_t(page);
    }
    Fd board;
    if (plan.emulated_nodes) {
        board.fd = int(syscall(SYS_memfd_create, "oshrun-board", MFD_CLOEXEC));
        if (board.fd < 0) throw Failure(std::string("memfd_create: ") + std::strerror(errno), 1);
    }

    // The PEs' environment: oshrun's, then the PEs' own variables (SHMEM_*, -x), then the run's.
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        const std::string name(*e, eq ? size_t(eq - *e) : std::strlen(*e));
        if (name.rfind("SHMEM_LINUX_", 0) == 0 || env_value(req.env, name)) continue;
        env.push_back(*e);
    }
    env.insert(env.end(), req.env.begin(), req.env.end());
    if (!img.launcher.empty() && !std::getenv("QEMU_LD_PREFIX"))
        for (const Foreign& f : kForeign)
            if (img.launcher[0].size() >= std::strlen(f.qemu) &&
                img.launcher[0].compare(img.launcher[0].size() - std::strlen(f.qemu), std::string::npos, f.qemu) == 0 &&
                access(f.sysroot, F_OK) == 0)
                env.push_back(std::string("QEMU_LD_PREFIX=") + f.sysroot);
    // Emulated nodes reach each other over TCP, unless the user chose UCX's transports.
    if (plan.emulated_nodes) {
        if (!env_value(env, "UCX_TLS")) env.push_back("UCX_TLS=tcp");
        if (!env_value(env, "UCX_WARN_UNUSED_ENV_VARS")) env.push_back("UCX_WARN_UNUSED_ENV_VARS=n");
    }
    const auto pe_environment = [&](unsigned k) {
        const unsigned j = plan.node_of(k);
        const LinuxNode& node = plan.nodes[j];
        std::vector<std::string> pe_env = env;
        pe_env.push_back("SHMEM_LINUX_FD=" + std::to_string(nodes[j].mem.fd));
        pe_env.push_back("SHMEM_LINUX_NPES=" + std::to_string(n));
        pe_env.push_back("SHMEM_LINUX_HEAP=" + std::to_string(heap));
        pe_env.push_back("SHMEM_LINUX_SPIN=" + std::to_string(spin));
        pe_env.push_back("SHMEM_LINUX_YIELDS=" + std::to_string(yields));
        if (plan.emulated_nodes) {
            pe_env.push_back("SHMEM_LINUX_NODE_FIRST=" + std::to_string(node.first));
            pe_env.push_back("SHMEM_LINUX_NODE_NPES=" + std::to_string(node.npes));
            pe_env.push_back("SHMEM_LINUX_BOARD=" + std::to_string(board.fd));
        }
        pe_env.push_back("SHMEM_LINUX_PE=" + std::to_string(k));
        return pe_env;
    };

    Console console(n, std::cout, std::cerr, req.console);
    const SignalCatcher signals;
    // The watchdog (core/process.hpp) starts with the first TempDir: it kills every PE's process group should oshrun
    // die without stopping them (SIGKILL), grandchildren included. The directory itself stays empty.
    const TempDir watchdog;
    std::vector<Pe> pes(n);
    const pid_t parent = getpid();
    std::fflush(nullptr);
    for (unsigned k = 0; k < n; ++k) {
        const bool debugged = req.gdb_pe && *req.gdb_pe == k;
        int out[2], err[2];
        if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
            throw Failure(std::string("pipe: ") + std::strerror(errno), 1);
        std::vector<std::string> pe_env = pe_environment(k);
        const int mem = nodes[plan.node_of(k)].mem.fd;
        std::vector<std::string> argv = plan.command(k, img.launcher);
        if (debugged) argv.insert(argv.begin(), {gdb, "-q", "--args"});
        const pid_t pid = fork();
        if (pid < 0) throw Failure(std::string("fork: ") + std::strerror(errno), 1);
        if (pid == 0) {
            // A PE under gdb keeps the terminal (oshrun's process group, its stdin and output); the others have a
            // group of their own, stdin from /dev/null and their output on the pipes.
            tie_child_to(parent, !debugged);
            if (!debugged) {
                const int null = open("/dev/null", O_RDONLY);
                if (null >= 0) dup2(null, 0);
                dup2(out[1], 1);
                dup2(err[1], 2);
            }
            // Its node's shared memory and the board are the descriptors the PE inherits: the other nodes' objects
            // are closed at exec (close-on-exec).
            fcntl(mem, F_SETFD, 0);
            if (board.fd >= 0) fcntl(board.fd, F_SETFD, 0);
            if (pin) {
                cpu_set_t set;
                CPU_ZERO(&set);
                CPU_SET(nth_cpu(int(k)), &set);
                sched_setaffinity(0, sizeof set, &set);
            }
            personality(ADDR_NO_RANDOMIZE);
            std::vector<char*> cargv, cenv;
            for (std::string& a : argv) cargv.push_back(a.data());
            cargv.push_back(nullptr);
            for (std::string& e : pe_env) cenv.push_back(e.data());
            cenv.push_back(nullptr);
            execve(cargv[0], cargv.data(), cenv.data());
            const std::string msg = "oshrun: PE " + std::to_string(k) + ": cannot run " + cargv[0] + ": " +
                                    std::strerror(errno) + "\n";
            (void)!write(2, msg.data(), msg.size());
            _exit(127);
        }
        watch_child(pid, !debugged);
        close(out[1]);
        close(err[1]);
        Pe& pe = pes[k];
        pe.pid = pid;
        pe.out.fd = out[0];
        pe.err.fd = err[0];
        fcntl(pe.out.fd, F_SETFL, O_NONBLOCK);
        fcntl(pe.err.fd, F_SETFL, O_NONBLOCK);
        pe.pidfd.fd = int(syscall(SYS_pidfd_open, pid, 0));
        if (debugged) {
            pe.out.reset();
            pe.err.reset();
        }
    }
    // The PEs hold them now (and the control pages' mappings keep the nodes' objects for oshrun).
    for (NodeMemory& node : nodes) node.mem.reset();
    board.reset();
    if (req.gdb_pe)
        std::fprintf(stderr, "oshrun: PE %u runs under %s (type 'run' there; the others wait for it at start-up)\n",
                     *req.gdb_pe, gdb.c_str());

    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const double timeout = req.gdb_pe ? 0 : req.timeout.value_or(0);
    unsigned running = n;
    int result = -1;        // the run's status once decided
    std::string report;     // oshrun's own line about it, if any
    const auto kill_all = [&] {
        for (Pe& pe : pes)
            if (!pe.ended) kill(pe.pid, SIGKILL);
    };
    // At a timeout or a signal: every PE killed and reaped before oshrun returns, so that none is left a zombie
    // (under PID 1 once oshrun is gone) while its memory and pipes are still held.
    const auto kill_and_reap_all = [&] {
        kill_all();
        for (Pe& pe : pes)
            if (!pe.ended) {
                int status;
                while (waitpid(pe.pid, &status, 0) < 0 && errno == EINTR) {
                }
                pe.ended = true;
            }
    };
    unsigned reaped = 0;
    const auto reap = [&](unsigned k, int status) {
        Pe& pe = pes[k];
        pe.ended = true;
        pe.status = status;
        pe.end = reaped++;
        pe.pidfd.reset();
        --running;
    };
    // The exit word that ends the run now that PE k has ended: its node's if set, else another node's; of several,
    // the one whose PE ended first (PEs still running after those reaped, then in node order). 0: none is set.
    const auto exit_word = [&](unsigned k) {
        if (const uint32_t own = nodes[plan.node_of(k)].exit_word()) return own;
        uint32_t chosen = 0;
        unsigned chosen_rank = 0;
        for (const NodeMemory& node : nodes) {
            const uint32_t word = node.exit_word();
            if (word == 0) continue;
            const unsigned setter = (word >> 8) - 1;
            const unsigned rank = setter < n && pes[setter].ended ? pes[setter].end : n;
            if (chosen == 0 || rank < chosen_rank) chosen = word, chosen_rank = rank;
        }
        return chosen;
    };
    // What the end of PE k says of the run, unless the run's status is decided already.
    const auto judge = [&](unsigned k) {
        if (result >= 0) return;
        const int status = pes[k].status;
        const uint32_t word = exit_word(k);
        if (word != 0) {  // a PE ended the run (the first to say so wins)
            result = int(word & 0xff);
            return;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
        if (WIFEXITED(status)) {
            result = WEXITSTATUS(status);
        } else {
            const int sig = WTERMSIG(status);
            result = 128 + sig;
            report = "oshrun: PE " + std::to_string(k) + " was killed by signal " + signal_text(sig);
        }
    };

    while (running > 0) {
        std::vector<pollfd> fds;
        std::vector<std::pair<unsigned, int>> what;  // (PE, 0 stdout / 1 stderr / 2 its end)
        for (unsigned k = 0; k < n; ++k) {
            Pe& pe = pes[k];
            if (pe.out.fd >= 0) fds.push_back({pe.out.fd, POLLIN, 0}), what.push_back({k, 0});
            if (pe.err.fd >= 0) fds.push_back({pe.err.fd, POLLIN, 0}), what.push_back({k, 1});
            if (!pe.ended && pe.pidfd.fd >= 0) fds.push_back({pe.pidfd.fd, POLLIN, 0}), what.push_back({k, 2});
        }
        int wait_ms = 100;  // without pidfds, ends are noticed by waitpid below at this pace
        if (timeout > 0) {
            const double left = timeout - std::chrono::duration<double>(clock::now() - start).count();
            if (left <= 0) {
                kill_and_reap_all();
                console.finish();
                std::cout.flush();
                std::fprintf(stderr, "oshrun: timeout: %s did not finish within %g s on %u PEs; PEs killed\n",
                             program.c_str(), timeout, n);
                return 124;
            }
            wait_ms = std::min(wait_ms, int(left * 1000) + 1);
        }
        const int ready = poll(fds.data(), fds.size(), wait_ms);
        if (ready < 0 && errno != EINTR) throw Failure(std::string("poll: ") + std::strerror(errno), 1);
        if (const int sig = SignalCatcher::received()) {
            kill_and_reap_all();
            console.finish();
            std::cout.flush();
            std::fprintf(stderr, "oshrun: interrupted by %s; PEs stopped\n", strsignal(sig));
            return 128 + sig;
        }
        for (size_t i = 0; ready > 0 && i < fds.size(); ++i) {
            if (fds[i].revents == 0) continue;
            const auto [k, kind] = what[i];
            if (kind == 2) continue;  // reaped below
            Fd& fd = kind == 0 ? pes[k].out : pes[k].err;
            if (!relay(fd.fd, console, k, kind == 1)) fd.reset();
        }
        // Every end waitpid has now is reaped before any is judged: an exit word set by a PE reaped with k then
        // ranks before one set by a PE still running.
        std::vector<unsigned> ended;
        for (int status; running > 0;) {
            const pid_t w = waitpid(-1, &status, WNOHANG);
            if (w <= 0) break;
            for (unsigned k = 0; k < n; ++k)
                if (pes[k].pid == w && !pes[k].ended) reap(k, status), ended.push_back(k);
        }
        for (unsigned k : ended) judge(k);
        if (result >= 0) kill_all();
    }
    // Every PE has ended: what is left in the pipes (a PE's last lines) comes out before the report.
    for (unsigned k = 0; k < n; ++k) {
        if (pes[k].out.fd >= 0) relay(pes[k].out.fd, console, k, false, 1 << 20);
        if (pes[k].err.fd >= 0) relay(pes[k].err.fd, console, k, true, 1 << 20);
    }
    console.finish();
    std::cout.flush();
    if (!report.empty()) std::fprintf(stderr, "%s\n", report.c_str());
    return result < 0 ? 0 : result;
}

}  // namespace oshrun
