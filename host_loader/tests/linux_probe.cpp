// A stand-in for a program of the linux target: it carries libshmem's note (crt/linux/crt.cpp's), so that oshrun
// runs it, and nothing else of the library. Each PE prints what oshrun gave it, then ends as its arguments say:
//   linux_probe                 exits 0
//   linux_probe end P S X       PE P sets its node's exit word to (P + 1) << 8 | S and exits with X; the other PEs
//                               wait to be killed
//   linux_probe end-late P S Q  PE P sets its node's exit word to (P + 1) << 8 | S, grows the board to one byte and
//                               waits to be killed; PE Q waits for the board to grow, then exits with 9; the others
//                               wait to be killed
//   linux_probe exit S          every PE exits with S
//   linux_probe hang            every PE waits to be killed
// What it prints, one line each: NAME=VALUE for every variable of its environment named SHMEM_*, UCX_* or PROBE_*,
// and PMIX_RANK (a PMIx launcher's), then for every memfd it holds "memfd NAME fd N inode I size S". It runs under
// mpirun too (oshrun --launcher), where it holds no memfd.
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern char** environ;

namespace {

struct LinuxNote {
    uint32_t namesz, descsz, type;
    char name[12];
    char desc[8];
};
[[gnu::used, gnu::section(".note.libshmem"), gnu::aligned(4)]] const LinuxNote note = {9, 6, 1, "libshmem", "linux"};

// The variables it prints: oshrun's and the library's, UCX's, the tests' own (PROBE_*), and the rank a PMIx
// launcher gives.
bool printed(const char* assignment) {
    for (const char* prefix : {"SHMEM_", "UCX_", "PROBE_", "PMIX_RANK="})
        if (std::strncmp(assignment, prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

int number(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : -1;
}

void print() {
    for (char** e = environ; *e; ++e)
        if (printed(*e)) std::printf("%s\n", *e);
    DIR* d = opendir("/proc/self/fd");
    if (!d) return;
    while (const dirent* e = readdir(d)) {
        const int fd = std::atoi(e->d_name);
        char link[256] = {};
        if (e->d_name[0] == '.' || fd == dirfd(d)) continue;
        const std::string path = "/proc/self/fd/" + std::string(e->d_name);
        if (readlink(path.c_str(), link, sizeof link - 1) <= 0 || std::strncmp(link, "/memfd:", 7) != 0) continue;
        std::string name = link + 7;
        if (name.size() > 10 && name.compare(name.size() - 10, 10, " (deleted)") == 0) name.resize(name.size() - 10);
        struct stat st;
        if (fstat(fd, &st) != 0) continue;
        std::printf("memfd %s fd %d inode %llu size %lld\n", name.c_str(), fd, (unsigned long long)st.st_ino,
                    (long long)st.st_size);
    }
    closedir(d);
    std::fflush(stdout);
}

void set_exit_word(int status) {
    const long page = sysconf(_SC_PAGESIZE);
    void* control = mmap(nullptr, size_t(page), PROT_READ | PROT_WRITE, MAP_SHARED, number("SHMEM_LINUX_FD"), 0);
    if (control == MAP_FAILED) _exit(100);
    uint32_t expected = 0;
    __atomic_compare_exchange_n(static_cast<uint32_t*>(control), &expected,
                                uint32_t(number("SHMEM_LINUX_PE") + 1) << 8 | uint32_t(status), false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

[[noreturn]] void wait_to_be_killed() {
    for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
    print();
    const int pe = number("SHMEM_LINUX_PE");
    if (argc == 5 && std::strcmp(argv[1], "end") == 0) {
        if (pe != std::atoi(argv[2])) wait_to_be_killed();
        set_exit_word(std::atoi(argv[3]));
        _exit(std::atoi(argv[4]));
    }
    if (argc == 3 && std::strcmp(argv[1], "exit") == 0) _exit(std::atoi(argv[2]));
    if (argc == 2 && std::strcmp(argv[1], "hang") == 0) wait_to_be_killed();
    if (argc == 5 && std::strcmp(argv[1], "end-late") == 0) {
        const int board = number("SHMEM_LINUX_BOARD");
        if (pe == std::atoi(argv[2])) {
            set_exit_word(std::atoi(argv[3]));
            if (ftruncate(board, 1) != 0) _exit(101);
            wait_to_be_killed();
        }
        if (pe != std::atoi(argv[4])) wait_to_be_killed();
        for (struct stat st; fstat(board, &st) == 0 && st.st_size == 0;) usleep(1000);
        _exit(9);
    }
    return 0;
}
