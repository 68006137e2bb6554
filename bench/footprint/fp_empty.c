/* Footprint program 0: the baseline. An empty main linked the same way as the others, so it has what every
 * program on the target has (the startup code, the trap report, exit); scripts/footprint.sh reports what
 * fp_min and fp_rma add over it, which is what libshmem adds to a program. */
int main(void)
{
    return 0;
}
