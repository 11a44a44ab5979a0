// The Linux epoll interface for DatasyncServer's event loop: the Swift overlay of Glibc does not
// export <sys/epoll.h>. Empty on other platforms, where the loop uses POSIX poll.
#ifndef C_EPOLL_H
#define C_EPOLL_H

#if defined(__linux__)
#include <sys/epoll.h>
#endif

#endif
