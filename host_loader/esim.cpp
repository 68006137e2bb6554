// The esim backend (see esim.hpp): a stub until the simulator's session interface is settled.
#include "esim.hpp"

#include "common.hpp"
#include "run.hpp"

namespace oshrun {

namespace {

class EsimMesh final : public Mesh {
public:
    EsimMesh(const Target& t, const EpPlan& plan, std::string simulator, bool verbose)
        : target_(t), plan_(plan), simulator_(std::move(simulator)), verbose_(verbose) {
        not_written();
    }
    void reset(const std::vector<unsigned>&) override { not_written(); }
    void write(uint32_t, const void*, size_t) override { not_written(); }
    void read(uint32_t, void*, size_t) override { not_written(); }
    void start(const std::vector<unsigned>&) override { not_written(); }
    void stop() override {}  // nothing was started

private:
    [[maybe_unused]] const Target& target_;
    [[maybe_unused]] const EpPlan& plan_;
    [[maybe_unused]] std::string simulator_;  // full path of epiphany-elf-run
    [[maybe_unused]] bool verbose_;

    [[noreturn]] static void not_written() {
        throw Failure("esim backend not yet written (host_loader/esim.cpp); on a Parallella use --backend parallella",
                      127);
    }
};

}  // namespace

std::unique_ptr<Mesh> open_esim(const Target& t, const EpPlan& plan, const std::string& simulator, bool verbose) {
    const std::string wanted = simulator.empty() ? kEsimSimulator : simulator;
    const std::string path = find_on_path(wanted);
    if (path.empty())
        throw Failure(simulator.empty()
                          ? std::string(kEsimSimulator) + " not found on PATH: the esim backend runs the Epiphany "
                            "simulator, one " + kEsimSimulator + " per core; install it (Adapteva's epiphany-binutils-gdb "
                            "builds it with its multicore simulator, esim) or name it with --emulator PATH"
                          : "--emulator " + simulator + ": not found or not executable",
                      127);
    return std::make_unique<EsimMesh>(t, plan, path, verbose);
}

}  // namespace oshrun
