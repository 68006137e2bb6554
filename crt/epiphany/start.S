/* Epiphany startup: the interrupt vector table, the reset path to C, and the interrupt handlers.
 *
 * The host writes the image and the boot block, then latches SYNC on every core: the core starts at the
 * reset vector, IVT entry 0. Handlers that only wake the core (user, timers, DMA) return at once: their
 * work is to end IDLE. None of them touches a register or the flags, so they can interrupt anything. Those of
 * user and DMA are an rti in the vector itself (a 4-byte entry holds one; a branch to one costs a wake-up 3
 * cycles more).
 */
#include "boot_block.h"

/* The handlers are global symbols: with binutils 2.40 a 24-bit branch to a local label in another section
 * (a relocation against the section symbol plus an offset) landed at the section's start plus a wrong offset. */
    .global _shmem_reset, _shmem_sw_exception, _shmem_mem_fault, _shmem_isr_return, _shmem_wand_isr, _shmem_timer0_isr, _shmem_timer1_isr

    .section .shmem_ivt, "ax"
    .global _shmem_ivt
_shmem_ivt:
    b.l _shmem_reset          /* 0 sync (start) */
    b.l _shmem_sw_exception   /* 1 software exception */
    b.l _shmem_mem_fault      /* 2 memory fault */
    b.l _shmem_timer0_isr     /* 3 timer 0: the cycle counter ran out; re-arm it */
    b.l _shmem_timer1_isr     /* 4 timer 1: the sleep backstop */
    b.l _shmem_message_isr    /* 5 message: an IPI get request (port.cpp, SHMEM_USE_IPI_GET) */
    rti                       /* 6 DMA 0 */
    nop
    rti                       /* 7 DMA 1 */
    nop
    b.l _shmem_wand_isr       /* 8 WAND: the barrier is complete */
    rti                       /* 9 user: another PE wrote something this PE may be waiting for */

    .section .text.shmem_start, "ax"
    .balign 4
/* Leave the SYNC interrupt state (so that every lower-priority interrupt can be taken) and go to _start.
 * rti enables interrupts: the stack must be valid before it, for a wake-up that arrives at once. */
_shmem_reset:
    mov sp, %low(___stack_top - 8)
    movt sp, %high(___stack_top - 8)
    mov r0, %low(_start)
    movt r0, %high(_start)
    movts iret, r0
    rti

    .global _start
_start:
    gid
    mov sp, %low(___stack_top - 8)
    movt sp, %high(___stack_top - 8)
    mov fp, #0
    mov r0, %low(SHMEM_EP_BOOT_BLOCK_ADDR)
    movt r0, %high(SHMEM_EP_BOOT_BLOCK_ADDR)
    mov r12, %low(_shmem_crt_start)
    movt r12, %high(_shmem_crt_start)
    jalr r12
1:  idle
    b 1b

/* Timer ADDR (CTIMER0 or CTIMER1, a local register address) = 0xffffffff, through r0 and r1. */
.macro TIMER_TO_MAX addr
    mov r0, %low(\addr)
    movt r0, %high(\addr)
    mov r1, #0xffff
    movt r1, #0xffff
    str r1, [r0]
.endm

/* Nothing to do but end IDLE. */
_shmem_isr_return:
    rti

/* Without SHMEM_USE_IPI_GET nothing sends MESSAGE (and it stays masked). */
    .weak _shmem_message_isr
    .set _shmem_message_isr, _shmem_isr_return

/* The sleep backstop expired. A timer that has counted down to 0 stays there and (in esim, every cycle) raises
 * its interrupt again: push it far away, out of the way until the next wait arms it (port::wait_until). */
_shmem_timer1_isr:
    str r0, [sp, #-2]
    str r1, [sp, #-3]
    TIMER_TO_MAX 0xf043c       /* CTIMER1 */
    ldr r1, [sp, #-3]
    ldr r0, [sp, #-2]
    rti

/* CTIMER0, the cycle counter (port::cycles), counted down from 0xffffffff to 0. The E16 has no wrap mode (the
 * E64's CONFIG.TIMERWRAP, bit 26, is not on the Epiphany-III) and a timer stops at 0: start it again at once and
 * count the wrap in _shmem_cycles_hi. The cycles between reaching 0 and the store below (the interrupt's
 * latency, a few cycles, more if interrupts were disabled then) are lost once every 2^32 cycles (7 s at
 * 600 MHz). `add` sets the flags: STATUS is restored from r2 (movts to STATUS writes the flags only). No other
 * handler nests in this one: an interrupt disables interrupts until rti, and this one does not enable them. */
_shmem_timer0_isr:
    str r0, [sp, #-2]
    str r1, [sp, #-3]
    str r2, [sp, #-4]
    TIMER_TO_MAX 0xf0438       /* CTIMER0 */
    movfs r2, status
    mov r0, %low(_shmem_cycles_hi)
    movt r0, %high(_shmem_cycles_hi)
    ldr r1, [r0]
    add r1, r1, #1
    str r1, [r0]
    movts status, r2
    ldr r2, [sp, #-4]
    ldr r1, [sp, #-3]
    ldr r0, [sp, #-2]
    rti

/* WAND completed on every core: count it (shmem_wand[0], the count the barrier waits for: port/epiphany/port.cpp,
 * barrier_world), and clear this core's STATUS.WAND (bit 3).
 * The chip raises the WAND interrupt when the wired AND of every core's bit becomes true; a bit left set keeps
 * the AND true, and the next WAND barrier would never raise it again. STATUS cannot write bit 3; FSTATUS
 * (hstatus) writes every bit: the value read before the AND, so the interrupted code's flags come back as they
 * were. The words below sp are free (the interrupted code's frame is above them). */
_shmem_wand_isr:
    str r0, [sp, #-2]
    str r1, [sp, #-3]
    str r2, [sp, #-4]
    movfs r2, status           /* first: the add below changes the flags */
    mov r0, %low(_shmem_wand)
    movt r0, %high(_shmem_wand)
    ldr r1, [r0]
    add r1, r1, #1
    str r1, [r0]
    mov r1, #0xfff7
    movt r1, #0xffff
    and r1, r2, r1
    movts hstatus, r1
    ldr r2, [sp, #-4]
    ldr r1, [sp, #-3]
    ldr r0, [sp, #-2]
    rti

/* Faults: report and end the run (never return). */
_shmem_sw_exception:
    mov r0, #1
    b.l 2f
_shmem_mem_fault:
    mov r0, #2
2:  movfs r1, iret
    movfs r2, status
    mov r3, sp
    mov r12, %low(_shmem_crt_trap)
    movt r12, %high(_shmem_crt_trap)
    jalr r12
3:  idle
    b 3b

    .section .bss.shmem_cycles_hi, "aw", @nobits
    .balign 4
    .global _shmem_cycles_hi
_shmem_cycles_hi:
    .space 4

    /* uint32_t[2]: WAND barriers completed (counted here) and begun (port.cpp, barrier_world). */
    .section .bss.shmem_wand, "aw", @nobits
    .balign 4
    .global _shmem_wand
_shmem_wand:
    .space 8
