// What runs a program on a target: one Backend per folder of backends/ (virt-rv64, epiphany, tile, linux), each
// running one or more targets. backends/registry.hpp lists them; main finds a request's backend there, checks the
// request against the target's facts and the options the backend takes (check_request), and hands it the request.
#pragma once

#include <string>
#include <vector>

#include "image.hpp"
#include "request.hpp"
#include "target.hpp"

namespace oshrun {

class Backend {
public:
    virtual ~Backend() = default;
    // This backend's targets, in the order --help and --version list them. The same objects for the life of the
    // program; every name is unique among all backends' targets.
    virtual const std::vector<Target>& targets() const = 0;
    // The target of this backend a program runs on when no --target is given (linux: a program of this host's
    // machine), or nullptr when the backend does not claim it (so does a backend that does not override this).
    // Reads at most the file's first bytes; never throws.
    virtual const Target* claims(const std::string& program) const;
    // Whether this backend's targets take option o. A request that gives an option its target does not take is
    // refused before load or run see it (check_request).
    virtual bool takes(Option o) const = 0;
    // What --help says of this backend's own options and behaviour: whole lines, ending with an empty one; "" for
    // nothing.
    virtual std::string help() const = 0;
    // req.program read and checked as an image of t, one of targets(): what run needs of it. Throws Failure
    // ("<path>: <what is wrong>", status 2) if it is not one.
    virtual Image load(const Target& t, const Request& req) const = 0;
    // Runs img, what load returned for t and req, on req.npes PEs of t (check_request has checked req against t;
    // complete_request has added what oshrun's environment says). With req.dry_run: prints the plan on stdout
    // (the placement, and what would run it), starts nothing, returns 0. Otherwise returns the run's exit status:
    // the program's, or 124 (timeout), 125 (the emulator ended before the program did), 128 + n (signal n), each
    // with oshrun's line on stderr. Throws Failure when the run cannot be planned (status 2) or started (127: the
    // emulator, simulator or device is missing; 125: nothing here can start t's cores).
    virtual int run(const Target& t, const Image& img, const Request& req) const = 0;
};

// The names of backends' targets, in order: "virt-rv64, epiphany-e16, ...".
std::string target_names(const std::vector<const Backend*>& backends);

// The message that refuses option o on target t: "<option> is an option of <the targets of backends that take
// it>; <t> does not take it".
std::string refusal(Option o, const Target& t, const std::vector<const Backend*>& backends);

// Throws Failure (status 2) if req cannot run on t, a target of `backend`: -np outside 1..t.max_pes, or an option
// the backend does not take (refusal). backends: all of them, for the message.
void check_request(const Request& req, const Target& t, const Backend& backend,
                   const std::vector<const Backend*>& backends);

}  // namespace oshrun
