// Linux system interfaces that the Swift overlay of Glibc does not export: epoll and naming a
// thread (DatasyncServer's event loop), and the futex wait and wake calls (Streams' lock). Empty on
// other platforms, where the loop uses POSIX poll and Darwin's own pthread_setname_np, and Streams
// locks with os_unfair_lock.
#ifndef C_LINUX_SYSTEM_H
#define C_LINUX_SYSTEM_H

#if defined(__linux__)
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>

// Declared by <pthread.h> only with _GNU_SOURCE; part of glibc since 2.12.
int pthread_setname_np(pthread_t thread, const char *name);

// Sleeps while the 32-bit word at `word` holds `expected` (FUTEX_WAIT, private to the process).
// Returns at once if it does not, and may return spuriously: the caller re-checks the word. Does
// no atomic operation of its own on the word beyond the kernel's comparison.
void clinux_futex_wait(uint32_t *word, uint32_t expected);

// Wakes at most one thread sleeping in `clinux_futex_wait` on `word` (FUTEX_WAKE, private).
void clinux_futex_wake_one(uint32_t *word);
#endif

#endif
