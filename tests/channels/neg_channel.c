/* Wrong uses of the channels (argv[1] says which), made by the last PE while the others wait in a barrier:
 * each must end the run with status 134 and a message naming the routine, the PE, the argument and what was
 * expected. */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

static shmemx_channel_t ch, never_initialised;
static shmemx_channel_set_t set;

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (me == n - 1) {
        shmemx_channel_t on_stack;
        uint64_t v;
        /* a channel of PE 0 to itself, which the last PE (not PE 0 at two PEs or more) must not use */
        if (strcmp(kind, "recv_wrong_pe") == 0) {
            shmemx_channel_init(&ch, 0, 0, 1);
            (void)shmemx_channel_recv(&ch);
        }
        if (strcmp(kind, "send_wrong_pe") == 0) {
            shmemx_channel_init(&ch, 0, 0, 1);
            shmemx_channel_send(&ch, 1);
        }
        if (strcmp(kind, "try_recv_wrong_pe") == 0) {
            shmemx_channel_init(&ch, me, 0, 1);
            (void)shmemx_channel_try_recv(&ch, &v);
        }
        if (strcmp(kind, "uninitialised") == 0) shmemx_channel_send(&never_initialised, 1);
        /* on a port whose channels use messages: the sender's copy initialised, PE 0's (the receiver's) never */
        if (strcmp(kind, "receiver_unset") == 0) {
            shmemx_channel_init(&never_initialised, me, 0, 1);
            shmemx_channel_send(&never_initialised, 1);
        }
        if (strcmp(kind, "stack") == 0) shmemx_channel_init(&on_stack, 0, 0, 1);
        if (strcmp(kind, "slots") == 0) shmemx_channel_init(&ch, 0, 0, SHMEMX_CHANNEL_MAX_SLOTS + 1);
        if (strcmp(kind, "slots_zero") == 0) shmemx_channel_init(&ch, 0, 0, 0);
        if (strcmp(kind, "receiver") == 0) shmemx_channel_init(&ch, 0, n, 1);
        if (strcmp(kind, "sender") == 0) shmemx_channel_init(&ch, -1, 0, 1);
        if (strcmp(kind, "self_full") == 0) {
            shmemx_channel_init(&ch, me, me, 1);
            shmemx_channel_send(&ch, 1);
            shmemx_channel_send(&ch, 2);
        }
        if (strcmp(kind, "self_empty") == 0) {
            shmemx_channel_init(&ch, me, me, 2);
            (void)shmemx_channel_recv(&ch);
        }
        if (strcmp(kind, "set_receiver") == 0) {
            shmemx_channel_init(&ch, me, 0, 1);
            shmemx_channel_set_init(&set, &ch, 1);
        }
        if (strcmp(kind, "set_uninitialised") == 0) shmemx_channel_set_init(&set, &never_initialised, 1);
        if (strcmp(kind, "set_empty") == 0) shmemx_channel_set_init(&set, &ch, 0);
        if (strcmp(kind, "set_self") == 0) {
            shmemx_channel_init(&ch, me, me, 1);
            shmemx_channel_set_init(&set, &ch, 1);
            (void)shmemx_channel_recv_any(&set, NULL);
        }
        if (strcmp(kind, "set_not_initialised") == 0) (void)shmemx_channel_recv_any(&set, NULL);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
