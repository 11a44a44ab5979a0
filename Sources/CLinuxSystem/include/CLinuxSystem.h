// Linux system interfaces that DatasyncServer's event loop uses and the Swift overlay of Glibc
// does not export: epoll, and naming a thread. Empty on other platforms, where the loop uses
// POSIX poll and Darwin's own pthread_setname_np.
#ifndef C_LINUX_SYSTEM_H
#define C_LINUX_SYSTEM_H

#if defined(__linux__)
#include <pthread.h>
#include <sys/epoll.h>

// Declared by <pthread.h> only with _GNU_SOURCE; part of glibc since 2.12.
int pthread_setname_np(pthread_t thread, const char *name);
#endif

#endif
