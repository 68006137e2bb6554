/* What shmemx_cycles counts on the machine a benchmark runs on, for the line each benchmark prints first.
 * BENCH_CYCLE_IS: what one cycle is. BENCH_PER_PE_CLOCK: 1 where the count is PE 0's own clock (a collective's
 * figure is PE 0's time), 0 where it is the whole machine's (QEMU's -icount: a collective's figure is the work of
 * all PEs together, which may be divided among them). */
#ifndef BENCH_CYCLES_H
#define BENCH_CYCLES_H

#if defined(__epiphany__)
#define BENCH_CYCLE_IS "a clock cycle of PE 0's core (CTIMER0; on oshrun's simulator, its cycle model)"
#define BENCH_PER_PE_CLOCK 1
#elif defined(__tilegx__) || defined(__tilepro__)
#define BENCH_CYCLE_IS "a clock cycle of PE 0's tile (SPR CYCLE; on oshrun's TILE-Gx simulator, its timing model)"
#define BENCH_PER_PE_CLOCK 1
#elif defined(__riscv)
#define BENCH_CYCLE_IS "one retired instruction of the whole machine (rdcycle under oshrun --icount)"
#define BENCH_PER_PE_CLOCK 0
#else
#define BENCH_CYCLE_IS "a tick of the host's cycle counter (linux: the time-stamp counter, not the core's clock)"
#define BENCH_PER_PE_CLOCK 1
#endif

#endif
