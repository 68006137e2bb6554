// A stand-in for a program of the linux target: it carries libshmem's note (crt/linux/crt.cpp's), so that oshrun
// runs it, and nothing else of the library. Each PE prints what oshrun gave it, then ends as its arguments say:
//   linux_probe                 exits 0
//   linux_probe end P S X       PE P sets its node's exit word to (P + 1) << 8 | S and exits with X; the other PEs
//                               wait to be killed
//   linux_probe end-late P S Q  PE P sets its node's exit word to (P + 1) << 8 | S, grows the board to one byte and
//                               waits to be killed; PE Q waits for the board to grow, then exits with 9; the others
//                               wait to be killed
// What it prints, one line each: NAME=VALUE for the variables below that are set, then for every memfd it holds
// "memfd NAME fd N inode I size S".
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct LinuxNote {
    uint32_t namesz, descsz, type;
    char name[12];
    char desc[8];
};
[[gnu::used, gnu::section(".note.libshmem"), gnu::aligned(4)]] const LinuxNote note = {9, 6, 1, "libshmem", "linux"};

const char* const kNames[] = {"SHMEM_LINUX_FD",         "SHMEM_LINUX_PE",        "SHMEM_LINUX_NPES",
                              "SHMEM_LINUX_NODE_FIRST", "SHMEM_LINUX_NODE_NPES", "SHMEM_LINUX_BOARD",
                              "UCX_TLS",                "UCX_WARN_UNUSED_ENV_VARS"};

int number(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : -1;
}

void print() {
    for (const char* name : kNames)
        if (const char* v = std::getenv(name)) std::printf("%s=%s\n", name, v);
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
