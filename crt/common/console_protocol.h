/* The console stream between the PEs and oshrun: what the UART carries on virt-rv64 and what each PE's mailbox
 * ring carries on Epiphany. Plain C, shared byte for byte by the startup code and the host loader.
 *
 * The stream is a sequence of records:
 *
 *   byte 0     SHMEM_CONSOLE_SOH (0x01)
 *   byte 1     kind: SHMEM_CONSOLE_STDOUT ('o'), SHMEM_CONSOLE_STDERR ('e') or SHMEM_CONSOLE_EXIT ('x')
 *   bytes 2-3  the writing PE's number, little-endian
 *   byte 4     payload length, 0..255
 *   then       the payload
 *
 * A PE writes one record at a time under the console lock (virt; on Epiphany each PE has a ring of its own), so
 * records never interleave; a line longer than one record is several records, and the lines of other PEs may
 * come between them. oshrun reassembles each PE's stdout and stderr into whole lines before it writes them out:
 * lines of any length never interleave, whatever the target's buffer size.
 *
 * An exit record (virt only; Epiphany reports it in the mailbox) carries one byte, the run's exit status, and is
 * the last thing a PE writes before it ends the run: oshrun tells a program's status from an emulator that failed
 * by it. Bytes outside any record (a message from a hart that has no boot block, written before anything is set
 * up) are passed through to oshrun's stdout as they are.
 */
#ifndef SHMEM_CONSOLE_PROTOCOL_H
#define SHMEM_CONSOLE_PROTOCOL_H

#define SHMEM_CONSOLE_SOH 0x01
#define SHMEM_CONSOLE_STDOUT 'o'
#define SHMEM_CONSOLE_STDERR 'e'
#define SHMEM_CONSOLE_EXIT 'x'
#define SHMEM_CONSOLE_HEADER 5       /* bytes before the payload */
#define SHMEM_CONSOLE_MAX_PAYLOAD 255

#endif
