// Start-up through PMIx (pmix.cpp): the linux port's side of a launcher such as mpirun or srun --mpi=pmix.
#pragma once

#include <stddef.h>

namespace shmem::port {

struct PmixRun {
    int pe, npes;                 // this PE, the job's size
    int node_first, node_npes;    // the PEs that share this PE's memory object: consecutive, on its node
    int node_processes;           // the job's processes on this node (for how a wait polls)
};

// Whether a PMIx launcher started this program (PMIX_RANK in its environment).
bool pmix_launched(char **envp);
// Loads PMIx, joins the job, and opens the node's memory object (its descriptor). Ends the process with 127 and a
// report if any of it fails.
int pmix_start(PmixRun *run);
// Every PE of the node has mapped the memory object: its name goes (the last PE to map it calls this).
void pmix_node_mapped();
// The network's exchange: this PE's bytes out, a fence that collects everyone's; then any PE's bytes (null if none).
void pmix_publish(const void *bytes, size_t n);
const void *pmix_fetch(int pe, size_t *n);
// A fence of the whole job that does not block: *done becomes true when every PE has reached it.
void pmix_fence_start(bool *done);
// Ends the whole job with status (after this PE's report): the launcher stops the other processes.
void pmix_abort(int status);

}  // namespace shmem::port
