// The futex calls declared in include/CLinuxSystem.h; the rest of the header is declarations only.
#include "CLinuxSystem.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void clinux_futex_wait(uint32_t *word, uint32_t expected) {
  // EAGAIN (the word no longer holds `expected`) and EINTR both mean "look again": the caller does.
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void clinux_futex_wake_one(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
